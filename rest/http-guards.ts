import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Actor } from '../core/auth/actor.js';
import type { AuthService } from '../core/auth/auth.service.js';
import { AuthenticationError } from '../core/errors.js';
import { HttpProblem } from './problem.js';

/**
 * The HTTP behaviour shared by every endpoint, REST and GraphQL alike: request ids, access logs,
 * bearer authentication and the per-client rate limit. The composition root mounts them.
 */

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  const id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = id;
  res.set('X-Request-Id', id);
  next();
};

/** One line per request: never headers, bodies or query strings, so no token can reach the log. */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info(
        {
          requestId: res.locals.requestId,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          clientId: (res.locals.actor as Actor | undefined)?.clientId,
        },
        'request',
      );
    });
    next();
  };
}

export function authenticate(auth: AuthService): RequestHandler {
  return (req, res, next) => {
    const header = req.get('authorization');
    const match = header ? /^Bearer ([^\s]+)$/i.exec(header) : null;
    if (!match) {
      next(new AuthenticationError('Send an access token as "Authorization: Bearer <token>"; get one from POST /v1/oauth.'));
      return;
    }
    auth.authenticate(match[1]!).then((actor) => {
      res.locals.actor = actor;
      next();
    }, next);
  };
}

/** Requests per rolling minute per clientId (per IP before authentication). */
export function rateLimit(perMinute: number): RequestHandler {
  const limiter = new RateLimiterMemory({ points: perMinute, duration: 60 });
  return (req, res, next) => {
    const actor = res.locals.actor as Actor | undefined;
    const key = actor ? `client:${actor.clientId}` : `ip:${req.ip}`;
    const setHeaders = (state: RateLimiterRes) => {
      res.set({
        'RateLimit-Limit': String(perMinute),
        'RateLimit-Remaining': String(Math.max(0, state.remainingPoints)),
        'RateLimit-Reset': String(Math.ceil(state.msBeforeNext / 1000)),
      });
    };
    limiter.consume(key).then(
      (state) => {
        setHeaders(state);
        next();
      },
      (rejection: unknown) => {
        if (!(rejection instanceof RateLimiterRes)) return next(rejection);
        setHeaders(rejection);
        const retryAfter = String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
        next(new HttpProblem(429, 'rate_limited', `More than ${perMinute} requests per minute; retry in ${retryAfter} s.`, { 'Retry-After': retryAfter }));
      },
    );
  };
}

export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.set('X-Content-Type-Options', 'nosniff');
  next();
};

/**
 * CORS is off unless origins are listed: browsers on other origins then get no
 * Access-Control-Allow-Origin. Listed origins may call with the bearer header.
 */
export function cors(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return (req, res, next) => {
    const origin = req.get('origin');
    if (!origin || !allowed.has(origin)) return next();
    res.set({ 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Expose-Headers': 'Location, X-Request-Id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset' });
    if (req.method !== 'OPTIONS') return next();
    res
      .set({ 'Access-Control-Allow-Methods': 'GET, POST, PATCH, DELETE', 'Access-Control-Allow-Headers': 'Authorization, Content-Type, X-Request-Id', 'Access-Control-Max-Age': '600' })
      .status(204)
      .end();
  };
}
