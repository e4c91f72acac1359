import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { waitForRun } from '../support/billing.js';
import { queryRows } from '../support/database.js';
import { create, fixtures } from '../support/fixtures.js';

const OCTOBER = { periodStart: '2026-10-01', periodEnd: '2026-11-01' };

describe('bill runs over the same contracts and days', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ QUEUE_POLL_SECONDS: '0.5' });
  });
  afterAll(() => app.close());

  /** The ids of the account's stored runs, oldest first (the worker changes their states meanwhile). */
  const runsOf = async (account: SignedUp) =>
    (await queryRows(app.database.url, 'select id from bill_runs where account_id = $1 order by created_at, id', [account.accountId])).map((r) => r.id);

  /** 409 bill_run_overlaps naming `blocking`, and no run stored. */
  async function expectOverlap(account: SignedUp, body: Record<string, unknown>, blocking: Record<string, any>): Promise<string> {
    const before = await runsOf(account);
    const response = await account.api.post('/v1/bill-runs', body);
    expect([response.status, response.body.code], JSON.stringify(body)).toEqual([409, 'bill_run_overlaps']);
    expect(response.body.detail).toContain(`Bill run ${blocking.id} `);
    expect(await runsOf(account)).toEqual(before);
    return response.body.detail;
  }

  it('accepts one of two parallel runs for one period and refuses the other, naming the first', async () => {
    const a = await app.signUp();
    const responses = await Promise.all([a.api.post('/v1/bill-runs', OCTOBER), a.api.post('/v1/bill-runs', OCTOBER)]);
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
    const winner = responses.find((r) => r.status === 201)!.body;
    const loser = responses.find((r) => r.status === 409)!.body;
    expect(loser).toMatchObject({ status: 409, code: 'bill_run_overlaps', detail: expect.stringContaining(`Bill run ${winner.id} covers 2026-10-01 to 2026-11-01 on every site`) });
    expect(await runsOf(a)).toEqual([winner.id]);
  });

  it('accepts one of several parallel runs that share a day and a site, whatever their periods and sites', async () => {
    const a = await app.signUp();
    const [s1, s2] = [await fixtures.site(a.api), await fixtures.site(a.api)];
    // Each pair shares October 1 on the first site.
    const bodies = [OCTOBER, { ...OCTOBER, siteIds: [s1.id] }, { periodStart: '2026-09-15', periodEnd: '2026-10-15', siteIds: [s2.id, s1.id] }, { periodStart: '2026-10-01', periodEnd: '2026-10-02', siteIds: [s1.id] }];
    const responses = await Promise.all(bodies.map((body) => a.api.post('/v1/bill-runs', body)));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    const winner = responses.find((r) => r.status === 201)!.body;
    for (const loser of responses.filter((r) => r.status !== 201)) {
      expect([loser.status, loser.body.code]).toEqual([409, 'bill_run_overlaps']);
      expect(loser.body.detail).toContain(`Bill run ${winner.id} `);
    }
    expect(await runsOf(a)).toEqual([winner.id]);
  });

  it('refuses a run sharing a day and a site with one that is not completed, until that one is completed or deleted', async () => {
    const a = await app.signUp();
    const [s1, s2, s3] = [await fixtures.site(a.api), await fixtures.site(a.api), await fixtures.site(a.api)];

    const everySite = await create(a.api, '/v1/bill-runs', OCTOBER);
    expect(await expectOverlap(a, { ...OCTOBER, siteIds: [s1.id] }, everySite)).toMatch(/on every site and is (creating|created); complete or delete it first\.$/);
    await expectOverlap(a, { periodStart: '2026-10-15', periodEnd: '2026-11-15' }, everySite);
    await expectOverlap(a, { periodStart: '2026-09-01', periodEnd: '2026-10-02', siteIds: [s2.id] }, everySite);
    // Half-open periods: November starts the day October ends.
    await create(a.api, '/v1/bill-runs', { periodStart: '2026-11-01', periodEnd: '2026-12-01' });
    await create(a.api, '/v1/bill-runs', { periodStart: '2026-09-01', periodEnd: '2026-10-01', siteIds: [s1.id] });
    const graphql = await a.api.graphql(`mutation($input: BillRunInput!) { createBillRun(input: $input) { id } }`, { input: { ...OCTOBER, siteIds: [s3.id] } });
    expect(graphql.body.errors[0].extensions.code).toBe('bill_run_overlaps');

    expect((await a.api.delete(`/v1/bill-runs/${everySite.id}`)).status).toBe(204);
    const first = await create(a.api, '/v1/bill-runs', { ...OCTOBER, siteIds: [s1.id] });
    const second = await create(a.api, '/v1/bill-runs', { ...OCTOBER, siteIds: [s2.id] });
    expect(await expectOverlap(a, { ...OCTOBER, siteIds: [s3.id, s2.id] }, second)).toContain(`on sites ${s2.id} and is`);
    // Every site overlaps each run of one site; the oldest is named.
    await expectOverlap(a, OCTOBER, first);
    await create(a.api, '/v1/bill-runs', { ...OCTOBER, siteIds: [s3.id] });

    // A failed run still blocks its sites and days.
    await waitForRun(a.api, first.id, 'created');
    await queryRows(app.database.url, `update bill_runs set state = 'failed', failure = 'test' where id = $1`, [first.id]);
    expect(await expectOverlap(a, { ...OCTOBER, siteIds: [s1.id] }, first)).toContain('and is failed;');
    expect((await a.api.delete(`/v1/bill-runs/${first.id}`)).status).toBe(204);
    await create(a.api, '/v1/bill-runs', { ...OCTOBER, siteIds: [s1.id] });

    // A completed run blocks nothing.
    await waitForRun(a.api, second.id, 'created');
    expect((await a.api.post(`/v1/bill-runs/${second.id}/complete`)).status).toBe(202);
    await waitForRun(a.api, second.id, 'completed');
    const again = await create(a.api, '/v1/bill-runs', { ...OCTOBER, siteIds: [s2.id] });
    expect(await runsOf(a)).toContain(again.id);
  });
});
