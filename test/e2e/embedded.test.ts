import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balancedSite, dayOfValues, waitForBalance } from '../support/balancing.js';
import { Api } from '../support/http.js';
import { runEbbs, startEbbs } from '../support/process.js';

describe('embedded mode (no DATABASE_URL)', () => {
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'ebbs-embedded-'));
    env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', QUEUE_POLL_SECONDS: '0.5', BALANCING_SWEEP_SECONDS: '1' };
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('starts on PGlite, lets the CLI in through the running server, serves sites, stops on SIGTERM and keeps its data', async () => {
    const server = await startEbbs(env);
    const cli = await runEbbs(['account', 'create', '--company-name', 'Embedded GmbH', '--email', 'ops@embedded.test'], env);
    expect(cli.code, cli.stderr).toBe(0);
    const account = JSON.parse(cli.stdout);
    expect(account).toEqual({ accountId: expect.any(String), userId: expect.any(String), apiToken: expect.stringMatching(/^ebbs_api_/) });

    const grant = await new Api(server.url).post('/v1/oauth', { grantType: 'api_token', token: account.apiToken });
    expect(grant.status).toBe(201);
    const api = new Api(server.url, grant.body.accessToken);
    const site = await api.post('/v1/sites', { name: 'PV Dach', type: 'balanced_accurate', address: { locality: 'Köln', postCode: '50667', country: 'DE' } });
    expect(site.status).toBe(201);
    expect((await stat(path.join(dataDir, 'jwt-secret'))).mode & 0o777).toBe(0o600);

    // The worker runs inside the server on the embedded database too.
    const balanced = await balancedSite(api, [null]);
    const day = '2026-03-01T23:00:00.000Z';
    const upload = [dayOfValues(balanced.producer.id, day, () => 1), dayOfValues(balanced.consumers[0]!.id, day, () => 0.5)].flat();
    expect((await api.post('/v1/measurements', { measurements: upload })).status).toBe(201);
    const status = await waitForBalance(api, balanced.site.id, '2026-03-02T22:45:00.000Z', 30_000);
    expect(status.incompleteIntervals).toBe(0);
    const feedIn = await api.get(`/v1/aggregated-balances?siteId=${balanced.site.id}&startDateTime=${day}&endDateTime=2026-03-02T23:00:00.000Z&interval=P1D`);
    expect(feedIn.body.data.find((r: { kind: string }) => r.kind === 'feed_in').value).toBe(48);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    // A restart reopens the data directory with the same signing secret: the old token still works.
    const again = await startEbbs(env);
    const read = await new Api(again.url, grant.body.accessToken).get(`/v1/sites/${site.body.id}`);
    expect(read.body).toEqual(site.body);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 90_000);

  it('keeps the "at most one" rules on PGlite too: one of parallel writes wins, the others get 409', async () => {
    const server = await startEbbs(env);
    try {
      const cli = await runEbbs(['account', 'create', '--company-name', 'Parallel GmbH', '--email', 'ops@parallel.test'], env);
      expect(cli.code, cli.stderr).toBe(0);
      const grant = await new Api(server.url).post('/v1/oauth', { grantType: 'api_token', token: JSON.parse(cli.stdout).apiToken });
      const api = new Api(server.url, grant.body.accessToken);
      const period = { periodStart: '2026-10-01', periodEnd: '2026-11-01' };
      const runs = await Promise.all([api.post('/v1/bill-runs', period), api.post('/v1/bill-runs', period)]);
      expect(runs.map((r) => r.status).sort()).toEqual([201, 409]);
      const run = runs.find((r) => r.status === 201)!.body;
      expect(runs.find((r) => r.status === 409)!.body).toMatchObject({ code: 'bill_run_overlaps', detail: expect.stringContaining(run.id) });
      const mpos = await Promise.all([1, 2, 3].map((i) => api.post('/v1/mpos', { channel: 'pseudo', provider: 'virtual', name: `Virtual ${i}` })));
      expect(mpos.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      expect((await api.get('/v1/bill-runs')).body.total).toBe(1);
      expect((await api.get('/v1/mpos')).body.total).toBe(1);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 90_000);

  it('refuses a bad configuration with a clear message', async () => {
    const result = await runEbbs(['serve'], { ...env, PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('DATABASE_URL: must be a postgres:// URL');
  });
});
