import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateBudgets } from '../rest/rate-limit.js';
import type { Config } from './config.js';

const MINUTE = 60;
/** How often an unreachable Redis is reported, not once per request. */
const REDIS_ERROR_LOG_INTERVAL_MS = 60_000;

export interface RateBudgetStore {
  budgets: RateBudgets;
  close(): Promise<void>;
}

/**
 * Counters in the process without REDIS_URL (one process), in Redis with it so that every API
 * process draws from the same budget; if Redis cannot be reached, each process falls back to its
 * own counters (an insurance limiter) and says so in the log.
 */
export function openRateBudgets(config: Config, logger: Logger): RateBudgetStore {
  const sizes = { clients: config.RATE_LIMIT_PER_MINUTE, anonymous: config.RATE_LIMIT_PER_MINUTE, oauth: config.OAUTH_RATE_LIMIT_PER_MINUTE };
  if (!config.REDIS_URL) {
    const memory = (points: number) => new RateLimiterMemory({ points, duration: MINUTE });
    return { budgets: { clients: memory(sizes.clients), anonymous: memory(sizes.anonymous), oauth: memory(sizes.oauth) }, close: async () => {} };
  }
  const redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
  let lastReport = 0;
  redis.on('error', (error: Error) => {
    if (Date.now() - lastReport < REDIS_ERROR_LOG_INTERVAL_MS) return;
    lastReport = Date.now();
    logger.warn({ err: error }, 'Redis unreachable: rate limits count in this process until it is back');
  });
  const shared = (name: keyof RateBudgets, points: number): RateLimiterAbstract =>
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${config.REDIS_KEY_PREFIX}:rate:${name}`,
      points,
      duration: MINUTE,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points, duration: MINUTE }),
    });
  return {
    budgets: { clients: shared('clients', sizes.clients), anonymous: shared('anonymous', sizes.anonymous), oauth: shared('oauth', sizes.oauth) },
    close: async () => {
      redis.disconnect();
    },
  };
}
