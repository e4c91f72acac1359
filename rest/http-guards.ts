import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Actor } from '../core/auth/actor.js';

/**
 * The HTTP behaviour shared by every endpoint, REST and GraphQL alike: request ids, access logs,
 * security headers and CORS (authentication and rate budgets: rate-limit.ts). The composition
 * root mounts them.
 */

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  const id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = id;
  res.set('X-Request-Id', id);
  next();
};

/**
 * Two lines per request, when it starts (so a request that takes the process down is still on
 * record) and when it ends; never headers, bodies or query strings, so no token can reach the log.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const line = { requestId: res.locals.requestId, method: req.method, path: req.originalUrl.split('?')[0] };
    logger.info(line, 'request started');
    res.on('finish', () => {
      logger.info(
        {
          ...line,
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          clientId: (res.locals.actor as Actor | undefined)?.clientId,
          graphqlCost: res.locals.graphqlCost as number | undefined,
        },
        'request',
      );
    });
    next();
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
