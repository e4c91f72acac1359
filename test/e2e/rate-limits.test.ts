import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, TEST_JWT_SECRET, TEST_WEBHOOK_KEY, type TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import { Api } from '../support/http.js';
import { runEbbs, startEbbs } from '../support/process.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

describe('one rate budget per client', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ WORKER: 'off', RATE_LIMIT_PER_MINUTE: '10' });
  });
  afterAll(() => app.close());

  it('is shared by REST and GraphQL, GraphQL paying one point per 100 of cost', async () => {
    const client = await app.signUp(undefined, { legalProfile: false });
    const rest = await client.api.get('/v1/sites');
    expect(rest.headers.get('ratelimit-remaining')).toBe('9');
    // sites(limit: 400) { data { id } } costs 400 points: 4 of the budget.
    const graphql = await client.api.graphql('{ sites(limit: 400) { data { id } } }');
    expect([graphql.status, graphql.headers.get('ratelimit-remaining')]).toEqual([200, '5']);
    for (let i = 0; i < 5; i++) expect((await client.api.graphql('{ sites { total } }')).status).toBe(200);
    const restRefused = await client.api.get('/v1/sites');
    expect([restRefused.status, restRefused.body.code]).toEqual([429, 'rate_limited']);
    expect(Number(restRefused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await client.api.graphql('{ sites { total } }')).status).toBe(429);
  });

  it('limits requests without a valid token per IP, before verifying them', async () => {
    const app2 = await startTestApp({ WORKER: 'off', RATE_LIMIT_PER_MINUTE: '5' });
    try {
      const client = await app2.signUp(undefined, { legalProfile: false });
      expect((await client.api.get('/v1/sites')).status).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await app2.api(`forged.${randomUUID()}.token`).get('/v1/sites')).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      expect((await app2.api().graphql('{ sites { total } }')).status).toBe(429);
      // The address is refused before any token is checked, for the rest of the window.
      expect((await client.api.get('/v1/sites')).status).toBe(429);
    } finally {
      await app2.close();
    }
  });

  it('limits /v1/oauth per IP and ignores X-Forwarded-For from peers not listed in TRUST_PROXY', async () => {
    const direct = await startTestApp({ WORKER: 'off', OAUTH_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await direct.api().post('/v1/oauth', { grantType: 'api_token', token: 'ebbs_api_unknown' }, { 'x-forwarded-for': `203.0.113.${i}` });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await direct.close();
    }
  });

  it('honours X-Forwarded-For from a trusted proxy', async () => {
    const proxied = await startTestApp({ WORKER: 'off', OAUTH_RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY: '127.0.0.1,::1' });
    try {
      const oauth = (ip: string) => proxied.api().post('/v1/oauth', { grantType: 'api_token', token: 'ebbs_api_unknown' }, { 'x-forwarded-for': ip });
      expect((await oauth('203.0.113.1')).status).toBe(401);
      expect((await oauth('203.0.113.1')).status).toBe(429);
      expect((await oauth('203.0.113.2')).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  it('falls back to counting in the process, and says so, when Redis cannot be reached', async () => {
    const offline = await startTestApp({ WORKER: 'off', RATE_LIMIT_PER_MINUTE: '3', REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const client = await offline.signUp(undefined, { legalProfile: false });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await client.api.get('/v1/sites')).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(offline.logs.some((line) => line.includes('Redis unreachable'))).toBe(true);
    } finally {
      await offline.close();
    }
  });
});

describe('several API processes', () => {
  it('share one budget through Redis', async () => {
    const database = await createTestDatabase(inject('templateDatabase'));
    const env = {
      DATABASE_URL: database.url,
      JWT_SECRET: TEST_JWT_SECRET,
      WEBHOOK_SECRET_KEY: TEST_WEBHOOK_KEY,
      PORT: '0',
      HOST: '127.0.0.1',
      WORKER: 'off',
      RATE_LIMIT_PER_MINUTE: '6',
      REDIS_URL,
      REDIS_KEY_PREFIX: `ebbs-test-${randomUUID()}`,
    };
    const servers = [await startEbbs(env), await startEbbs(env)];
    try {
      const account = JSON.parse((await runEbbs(['account', 'create', '--company-name', 'Twice', '--email', 'twice@example.test'], env)).stdout);
      const grant = await new Api(servers[0]!.url).post('/v1/oauth', { grantType: 'api_token', token: account.apiToken });
      const apis = servers.map((server) => new Api(server.url, grant.body.accessToken));
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await apis[i % 2]!.get('/v1/sites')).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
      const graphql = await apis[1]!.graphql('{ sites { total } }');
      expect(graphql.status).toBe(429);
    } finally {
      for (const server of servers) server.child.kill('SIGTERM');
      await Promise.all(servers.map((server) => server.exited));
      await database.drop();
    }
  }, 120_000);
});
