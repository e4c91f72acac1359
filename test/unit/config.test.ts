import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../app/config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toMatchObject({ PORT: 3000, DATA_DIR: './.data', LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: 600, REFRESH_TOKEN_TTL: 86400 });
    expect(loadConfig({}).JWT_SECRET).toBeUndefined();
    expect(loadConfig({})).toMatchObject({
      OAUTH_RATE_LIMIT_PER_MINUTE: 30,
      REDIS_KEY_PREFIX: 'ebbs',
      TRUST_PROXY: [],
      GRAPHQL_MAX_COST: 10_000,
      GRAPHQL_MAX_DEPTH: 8,
      GRAPHQL_MAX_ALIASES: 50,
      PDF_RENDER_WARMUP_DOCUMENTS: 500,
    });
    expect(loadConfig({}).REDIS_URL).toBeUndefined();
  });

  it('trusts X-Forwarded-For only from listed proxy addresses', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,::1' }).TRUST_PROXY).toEqual(['10.0.0.1', '10.1.0.0/16', '::1']);
    expect(() => loadConfig({ TRUST_PROXY: 'loopback' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ REDIS_URL: 'http://localhost:6379' })).toThrow(/REDIS_URL: must be a redis/);
  });

  it('names every bad value in one message', () => {
    expect(() => loadConfig({ PORT: '-1', LOG_LEVEL: 'loud', RATE_LIMIT_PER_MINUTE: '0' })).toThrow(/PORT[\s\S]*LOG_LEVEL[\s\S]*RATE_LIMIT_PER_MINUTE/);
    expect(() => loadConfig({ PDF_RENDER_WARMUP_DOCUMENTS: '-1' })).toThrow(/PDF_RENDER_WARMUP_DOCUMENTS/);
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET: must be at least 32 characters/);
  });

  it('has no default secret: an external database needs JWT_SECRET and WEBHOOK_SECRET_KEY', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://localhost/ebbs' })).toThrow(/JWT_SECRET: required when DATABASE_URL is set[\s\S]*WEBHOOK_SECRET_KEY: required when DATABASE_URL is set/);
  });
});
