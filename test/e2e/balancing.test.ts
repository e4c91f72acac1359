import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { balancedSite, dayOfValues, waitForBalance } from '../support/balancing.js';
import { queryRows } from '../support/database.js';

const DAY = '2026-03-01T23:00:00.000Z';
const NEXT_DAY = '2026-03-02T23:00:00.000Z';
const LAST_QH = '2026-03-02T22:45:00.000Z';
const FAST = { QUEUE_POLL_SECONDS: '0.5', BALANCING_SWEEP_SECONDS: '1', JOB_RETRY_DELAY_SECONDS: '1' };

/** Daylight: the producer makes 2 kWh per quarter hour from slot 28 to 67, nothing at night. */
const production = (slot: number) => (slot >= 28 && slot < 68 ? 2 : 0);
const demand = [0.5, 1, 1.5];

let app: TestApp;
let a: SignedUp;

beforeAll(async () => {
  app = await startTestApp(FAST);
  a = await app.signUp('A');
});
afterAll(() => app.close());

describe('balancing end to end', () => {
  it('balances an ingested day in the background and every kWh is accounted for', async () => {
    const { site, producer, consumers } = await balancedSite(a.api, [1, null, null]);
    const upload = [dayOfValues(producer.id, DAY, production), ...consumers.map((c, i) => dayOfValues(c.id, DAY, () => demand[i]!))].flat();
    expect((await a.api.post('/v1/measurements', { measurements: upload })).status).toBe(201);
    const status = await waitForBalance(a.api, site.id, LAST_QH);
    expect(status).toMatchObject({ lastBalancedInterval: LAST_QH, incompleteIntervals: 0, pendingRanges: 0 });

    const daily = (await a.api.get(`/v1/aggregated-balances?siteId=${site.id}&startDateTime=${DAY}&endDateTime=${NEXT_DAY}&interval=P1D`)).body;
    const value = (kind: string, debitor: string | null, creditor: string | null) =>
      daily.data.find((r: any) => r.kind === kind && r.debitorMeterId === debitor && r.creditorMeterId === creditor)?.value ?? 0;
    // 40 sunny quarter hours: the priority-1 consumer takes its 0.5 first, the others split 1.5 equally.
    expect(value('local', consumers[0]!.id, producer.id)).toBe(20);
    expect(value('local', consumers[1]!.id, producer.id)).toBe(30);
    expect(value('local', consumers[2]!.id, producer.id)).toBe(30);
    expect(value('grid', consumers[0]!.id, null)).toBe(96 * 0.5 - 20);
    expect(value('grid', consumers[1]!.id, null)).toBe(96 - 30);
    expect(value('grid', consumers[2]!.id, null)).toBe(144 - 30);
    expect(value('feed_in', null, producer.id)).toBe(0);
    expect(Object.keys(daily.data[0])).toEqual(['debitorMeterId', 'creditorMeterId', 'kind', 'startDateTime', 'endDateTime', 'value']);
    const order = daily.data.map((r: any) => `${r.debitorMeterId ?? ''}|${r.creditorMeterId ?? ''}`);
    expect(order).toEqual([...order].sort());

    const consumed = consumers.map((_, i) => 96 * demand[i]!);
    for (const [i, consumer] of consumers.entries()) {
      const rows = (await a.api.get(`/v1/aggregated-balances?debitorMeterId=${consumer.id}&startDateTime=${DAY}&endDateTime=${NEXT_DAY}&interval=PT1H`)).body;
      const total = rows.data.reduce((sum: number, r: any) => sum + r.value, 0);
      expect(total).toBeCloseTo(consumed[i]!, 6);
    }
    const graph = await a.api.graphql(`query($id: ID!) { site(id: $id) { balances(startDateTime: "${DAY}", endDateTime: "${NEXT_DAY}", interval: P1D) { total } } }`, { id: site.id });
    expect(graph.body.data.site.balances.total).toBe(daily.total);
  });

  it('re-balances a corrected interval, reports incomplete intervals, and reruns to identical rows', async () => {
    const { site, producer, consumers } = await balancedSite(a.api, [null, null]);
    const upload = [dayOfValues(producer.id, DAY, () => 1), ...consumers.map((c) => dayOfValues(c.id, DAY, () => 1))].flat();
    await a.api.post('/v1/measurements', { measurements: upload.filter((m) => !(m.meterId === consumers[1]!.id && m.timestamp === '2026-03-02T10:00:00.000Z')) });
    const incomplete = await waitForBalance(a.api, site.id, LAST_QH);
    expect(incomplete).toMatchObject({ incompleteIntervals: 1, firstIncompleteInterval: '2026-03-02T10:00:00.000Z' });
    const rowsBefore = await resultRows(app, site.id);

    await a.api.post('/v1/measurements', { measurements: [{ meterId: consumers[1]!.id, timestamp: '2026-03-02T10:00:00.000Z', value: 1 }] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const complete = await waitForBalance(a.api, site.id, LAST_QH);
    expect(complete.incompleteIntervals).toBe(0);
    const hour = (await a.api.get(`/v1/aggregated-balances?siteId=${site.id}&startDateTime=2026-03-02T10:00:00.000Z&endDateTime=2026-03-02T11:00:00.000Z&interval=PT15M`)).body;
    const repaired = hour.data.filter((r: any) => r.startDateTime === '2026-03-02T10:00:00.000Z');
    expect(repaired.map((r: any) => `${r.kind} ${r.value}`).sort()).toEqual(['grid 0.5', 'grid 0.5', 'local 0.5', 'local 0.5']);
    const rowsAfter = await resultRows(app, site.id);
    expect(rowsAfter.length).toBe(rowsBefore.length);

    // Same input again: the worker produces the very same rows.
    await a.api.post('/v1/measurements', { measurements: [{ meterId: consumers[0]!.id, timestamp: '2026-03-02T10:00:00.000Z', value: 2 }] });
    await a.api.post('/v1/measurements', { measurements: [{ meterId: consumers[0]!.id, timestamp: '2026-03-02T10:00:00.000Z', value: 1 }] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await waitForBalance(a.api, site.id, LAST_QH);
    expect(await resultRows(app, site.id)).toEqual(rowsAfter);
  });

  it('validates balance queries', async () => {
    const { site } = await balancedSite(a.api, [null]);
    const base = `/v1/aggregated-balances?startDateTime=${DAY}&endDateTime=${NEXT_DAY}&interval=P1D`;
    expect((await a.api.get(base)).body.errors[0].code).toBe('filter_required');
    const monthly = await (await import('../support/fixtures.js')).fixtures.site(a.api, { type: 'balanced_inaccurate' });
    const fine = await a.api.get(`${base.replace('P1D', 'PT15M')}&siteId=${monthly.id}`);
    expect(fine.body.errors[0].code).toBe('interval_too_fine');
    expect((await a.api.get(`${base}&siteId=${site.id}`.replace(DAY, '2026-03-01T00:00:00.000Z'))).body.errors[0].code).toBe('range_not_aligned');
  });
});

function resultRows(app: TestApp, siteId: string) {
  return queryRows(app.database.url, 'select day::text, kind, debitor_id, creditor_id, "values"::text from balance_days where site_id = $1 order by 1, 2, 3, 4', [siteId]);
}

describe('monthly balancing from occasional readings', () => {
  it('balances calendar months of the account timezone from register differences', async () => {
    const { fixtures, create } = await import('../support/fixtures.js');
    const site = await fixtures.site(a.api, { type: 'balanced_inaccurate' });
    expect(site.balanceResolution).toBe('P1M');
    const meter = (direction: string) => fixtures.meter(a.api, site.id, { direction, measuring: 'readings_inaccurate', startDate: '2025-12-31T23:00:00.000Z' });
    const [producer, consumer] = [await meter('producer'), await meter('consumer')];
    for (const m of [producer, consumer]) await create(a.api, '/v1/meter-balancing-settings', { siteId: site.id, meterId: m.id, balancing: 'participant', startDate: '2026-01-01', priority: null });
    const february = '2026-01-31T23:00:00.000Z';
    const march = '2026-02-28T23:00:00.000Z';
    const readings = [
      { meterId: producer.id, timestamp: february, value: 1000 },
      { meterId: producer.id, timestamp: '2026-02-15T11:11:11.111Z', value: 1120 },
      { meterId: producer.id, timestamp: march, value: 1300 },
      // The consumer's readings sit 12 h around the boundaries and are interpolated (within 48 h).
      { meterId: consumer.id, timestamp: '2026-01-31T11:00:00.000Z', value: 488 },
      { meterId: consumer.id, timestamp: '2026-02-01T11:00:00.000Z', value: 512 },
      { meterId: consumer.id, timestamp: '2026-02-28T11:00:00.000Z', value: 888 },
      { meterId: consumer.id, timestamp: '2026-03-01T11:00:00.000Z', value: 912 },
    ];
    expect((await a.api.post('/v1/measurements', { measurements: readings })).status).toBe(201);
    const status = await waitForBalance(a.api, site.id, february);
    expect(status).toMatchObject({ lastBalancedInterval: february, incompleteIntervals: 0 });
    const month = (await a.api.get(`/v1/aggregated-balances?siteId=${site.id}&startDateTime=${february}&endDateTime=${march}&interval=P1M`)).body;
    expect(month.data.map((r: any) => [r.kind, r.debitorMeterId, r.creditorMeterId, r.value])).toEqual([
      ['grid', consumer.id, null, 100],
      ['local', consumer.id, producer.id, 300],
    ]);
    const fine = await a.api.get(`/v1/aggregated-balances?siteId=${site.id}&startDateTime=${february}&endDateTime=${march}&interval=P1D`);
    expect(fine.body.errors[0].code).toBe('interval_too_fine');
  });
});

describe('virtual meters', () => {
  it('computes virtual meters from their formulas in the worker and serves them as measurements', async () => {
    const { create, fixtures } = await import('../support/fixtures.js');
    const { site, producer, consumers } = await balancedSite(a.api, [null, null]);
    const mpo = await create(a.api, '/v1/mpos', { channel: 'pseudo', provider: 'virtual', name: 'Virtual' });
    const customer = await fixtures.customer(a.api);
    const product = await fixtures.product(a.api);
    const contract = await fixtures.contract(a.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
    await create(a.api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: consumers[1]!.id, startDate: '2026-01-01' });
    const virtual = (identifier: string, formula: unknown[], extra: Record<string, unknown> = {}) =>
      create(a.api, '/v1/meters', { siteId: site.id, mpoId: mpo.id, direction: 'consumer', identifier, measuring: 'load_profile_accurate', startDate: '2025-12-31T23:00:00.000Z', formula, ...extra });
    const grid = await virtual('GRID', [
      { type: 'aggregation', aggregation: 'sum_local_consumer' },
      { type: 'arithmetic', arithmetic: 'subtraction' },
      { type: 'aggregation', aggregation: 'sum_local_producer' },
    ], { grid: true });
    const tenant = await virtual('TENANT', [{ type: 'aggregation', aggregation: 'sum_customer_consumers', customerId: customer.id }]);
    const nested = await virtual('NESTED', [{ type: 'meter', meterId: grid.id }, { type: 'arithmetic', arithmetic: 'addition' }, { type: 'meter', meterId: tenant.id }]);

    const upload = [dayOfValues(producer.id, DAY, production), dayOfValues(consumers[0]!.id, DAY, () => 0.5), dayOfValues(consumers[1]!.id, DAY, () => 1)].flat();
    await a.api.post('/v1/measurements', { measurements: upload });
    await waitForBalance(a.api, site.id, LAST_QH);
    const daily = async (meterId: string) =>
      (await a.api.get(`/v1/aggregated-measurements?meterId=${meterId}&startDateTime=${DAY}&endDateTime=${NEXT_DAY}&interval=P1D`)).body.data[0];
    // Consumption 96 × 1.5 = 144 kWh, production 40 × 2 = 80 kWh.
    expect(await daily(grid.id)).toMatchObject({ value: 64, complete: true });
    expect(await daily(tenant.id)).toMatchObject({ value: 96, complete: true });
    expect(await daily(nested.id)).toMatchObject({ value: 160, complete: true });
    const noon = await a.api.get(`/v1/measurements?meterId=${grid.id}&startDateTime=2026-03-02T11:00:00.000Z&endDateTime=2026-03-02T11:15:00.000Z`);
    expect(noon.body.data).toEqual([{ meterId: grid.id, timestamp: '2026-03-02T11:00:00.000Z', value: -0.5, obis: '1.29.0' }]);

    const rows = (await a.api.get(`/v1/aggregated-balances?creditorMeterId=${grid.id}&startDateTime=${DAY}&endDateTime=${NEXT_DAY}&interval=P1D`)).body.data;
    expect(rows.map((r: any) => r.kind)).toEqual(['grid', 'grid']);
  });
});
