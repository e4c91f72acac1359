import { availableParallelism } from 'node:os';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./.data'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  OAUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/, 'letters, digits, ":", "_" or "-"').default('ebbs'),
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((entry) => entry.trim()).filter(Boolean))
    .pipe(z.array(z.string().refine((entry) => ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry), 'must list proxy IPs or CIDRs, e.g. 10.0.0.1,10.1.0.0/16'))),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(10_000),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(8),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(50),
  REFRESH_TOKEN_TTL: z.coerce.number().int().min(1).default(86_400),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  CACHE_TTL_SECONDS: z.coerce.number().min(0).default(300),
  CHANGE_FEED_RECONNECT_SECONDS: z.coerce.number().min(0.05).default(1),
  WORKER: z.enum(['on', 'off']).default('on'),
  QUEUE_POLL_SECONDS: z.coerce.number().min(0.5).default(2),
  JOB_RETRY_LIMIT: z.coerce.number().int().min(0).default(5),
  JOB_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).default(5),
  BALANCING_SWEEP_SECONDS: z.coerce.number().min(0.5).default(30),
  WEBHOOK_SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  WEBHOOK_POLL_SECONDS: z.coerce.number().min(0.05).default(1),
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().min(0.01).default(30),
  WEBHOOK_RETRY_CAP_SECONDS: z.coerce.number().min(0.01).default(8 * 3600),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(19),
  WEBHOOK_LEASE_SECONDS: z.coerce.number().min(1).default(60),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  PDF_RENDER_THREADS: z.coerce.number().int().min(0).max(64).default(availableParallelism()),
  PDF_RENDER_WARMUP_DOCUMENTS: z.coerce.number().int().min(0).max(10_000).default(500),
  BILL_RUN_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(500),
  BILL_RUN_LEASE_SECONDS: z.coerce.number().min(1).default(60),
  BILL_RUN_SWEEP_SECONDS: z.coerce.number().min(0.5).default(10),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((origin) => origin.trim()).filter(Boolean))
    .pipe(z.array(z.url({ message: 'must list origins like https://tools.example.com' }))),
});

export type Config = z.output<typeof envSchema>;

export class ConfigError extends Error {}

/** Reads and validates the environment once at start; every bad value is named in one message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const missing = (['JWT_SECRET', 'WEBHOOK_SECRET_KEY'] as const).filter((key) => result.data.DATABASE_URL && !result.data[key]);
  if (missing.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${missing.map((key) => `  ${key}: required when DATABASE_URL is set (at least 32 characters)`).join('\n')}`);
  }
  return result.data;
}
