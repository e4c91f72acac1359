import type { Request, RequestHandler, Response } from 'express';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Actor } from '../core/auth/actor.js';
import type { AuthService } from '../core/auth/auth.service.js';
import { AuthenticationError } from '../core/errors.js';
import { HttpProblem } from './problem.js';

/**
 * The budgets every request draws from, REST and GraphQL alike: one per client (the API token a
 * session came from), one per IP for requests without a valid token, and one per IP for
 * `/v1/oauth`. Whether they count in the process or in Redis is the composition root's choice.
 */
export interface RateBudgets {
  clients: RateLimiterAbstract;
  anonymous: RateLimiterAbstract;
  oauth: RateLimiterAbstract;
}

/** A GraphQL operation is charged one point per 100 points of cost, at least one. */
export function pointsOfCost(cost: number): number {
  return Math.max(1, Math.ceil(cost / 100));
}

function setHeaders(res: Response, limiter: RateLimiterAbstract, state: RateLimiterRes): void {
  res.set({
    'RateLimit-Limit': String(limiter.points),
    'RateLimit-Remaining': String(Math.max(0, state.remainingPoints)),
    'RateLimit-Reset': String(Math.ceil(state.msBeforeNext / 1000)),
  });
}

function tooMany(limiter: RateLimiterAbstract, state: RateLimiterRes, what: string): HttpProblem {
  const retryAfter = String(Math.max(1, Math.ceil(state.msBeforeNext / 1000)));
  return new HttpProblem(429, 'rate_limited', `More than ${limiter.points} ${what} per minute; retry in ${retryAfter} s.`, { 'Retry-After': retryAfter });
}

/** Takes `points` from `key`'s budget; over budget the request ends in 429. */
async function charge(res: Response, limiter: RateLimiterAbstract, key: string, points: number, what: string): Promise<void> {
  try {
    setHeaders(res, limiter, await limiter.consume(key, points));
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    setHeaders(res, limiter, rejection);
    throw tooMany(limiter, rejection, what);
  }
}

const ipKey = (req: Request) => `ip:${req.ip ?? 'unknown'}`;

/**
 * Bearer authentication behind the per-IP budget: an IP whose budget is spent on requests without
 * a valid token gets 429 before any token is verified, and every refused token costs its IP a
 * point, so signature checks cannot be had for free.
 */
export function authenticate(auth: AuthService, budgets: RateBudgets): RequestHandler {
  return (req, res, next) => {
    const refuse = async (error: unknown) => {
      if (error instanceof AuthenticationError) await charge(res, budgets.anonymous, ipKey(req), 1, 'requests without a valid token');
      throw error;
    };
    const run = async () => {
      const spent = await budgets.anonymous.get(ipKey(req));
      if (spent && spent.remainingPoints <= 0) throw tooMany(budgets.anonymous, spent, 'requests without a valid token');
      const match = /^Bearer ([^\s]+)$/i.exec(req.get('authorization') ?? '');
      if (!match) throw new AuthenticationError('Send an access token as "Authorization: Bearer <token>"; get one from POST /v1/oauth.');
      res.locals.actor = await auth.authenticate(match[1]!);
    };
    run().catch(refuse).then(() => next(), next);
  };
}

/** One budget per client across both APIs: `points` says what this request costs (REST: 1). */
export function clientRateLimit(budgets: RateBudgets, points: (res: Response) => number = () => 1): RequestHandler {
  return (_req, res, next) => {
    const actor = res.locals.actor as Actor;
    charge(res, budgets.clients, `client:${actor.clientId}`, points(res), 'points').then(() => next(), next);
  };
}

/** `/v1/oauth` trades secrets for tokens: limited per IP, tighter than the API. */
export function oauthRateLimit(budgets: RateBudgets): RequestHandler {
  return (req, res, next) => {
    charge(res, budgets.oauth, ipKey(req), 1, 'token requests').then(() => next(), next);
  };
}
