import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDateOf } from '../../core/domain/time/calendar-date.js';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { balancedSite, dayOfValues, waitForBalance } from '../support/balancing.js';
import { waitForRun } from '../support/billing.js';
import { queryRows } from '../support/database.js';
import { create, fixtures } from '../support/fixtures.js';
import type { Api } from '../support/http.js';

/** Berlin days: 28 February (priority throughout) and 2 March 2026. */
const FEB_28 = '2026-02-27T23:00:00.000Z';
const MAR_2 = '2026-03-01T23:00:00.000Z';
const LAST_QH = '2026-03-02T22:45:00.000Z';
/** Slot 40 of each day, in the sun: the producer makes 2 kWh; consumer A uses 1 kWh, B 1.5 kWh. */
const FEB_NOON = '2026-02-28T09:00:00.000Z';
const MAR_NOON = '2026-03-02T09:00:00.000Z';
const FAST = { QUEUE_POLL_SECONDS: '0.5', BALANCING_SWEEP_SECONDS: '1', JOB_RETRY_DELAY_SECONDS: '1', RATE_LIMIT_PER_MINUTE: '100000' };

let app: TestApp;
let a: SignedUp;

beforeAll(async () => {
  app = await startTestApp(FAST);
  a = await app.signUp('Quartier');
});
afterAll(() => app.close());

/** The quarter hour's rows as `kind debitor creditor` → kWh, meters named by `names`. */
async function quarterHour(api: Api, siteId: string, at: string, names: Record<string, string>): Promise<Record<string, number>> {
  const end = new Date(Date.parse(at) + 15 * 60_000).toISOString();
  const rows = (await api.get(`/v1/aggregated-balances?siteId=${siteId}&startDateTime=${at}&endDateTime=${end}&interval=PT15M`)).body.data;
  const name = (id: string | null) => (id === null ? '-' : names[id]!);
  return Object.fromEntries(rows.map((r: any) => [`${r.kind} ${name(r.debitorMeterId)} ${name(r.creditorMeterId)}`, r.value]));
}

async function settingOf(api: Api, meterId: string): Promise<Record<string, any>> {
  return (await api.get(`/v1/meter-balancing-settings?meterId=${meterId}`)).body.data[0];
}

async function balancedQuartier() {
  const { site, producer, consumers } = await balancedSite(a.api, [null, null]);
  const [consumerA, consumerB] = consumers as [Record<string, any>, Record<string, any>];
  const names = { [producer.id]: 'PV', [consumerA.id]: 'A', [consumerB.id]: 'B' };
  const production = (slot: number) => (slot >= 28 && slot < 68 ? 2 : 0);
  const upload = [FEB_28, MAR_2].flatMap((day) => [dayOfValues(producer.id, day, production), dayOfValues(consumerA.id, day, () => 1), dayOfValues(consumerB.id, day, () => 1.5)].flat());
  expect((await a.api.post('/v1/measurements', { measurements: upload })).status).toBe(201);
  await waitForBalance(a.api, site.id, LAST_QH);
  return { site, producer, consumerA, consumerB, names };
}

/** Priority with one tier: 2 kWh split equally, 1 each; B takes 0.5 from the grid. */
const PRIORITY = { 'local A PV': 1, 'local B PV': 1, 'grid B -': 0.5 };

describe('allocation keys', () => {
  it('re-balances by static shares, then in proportion to demand, from the date each key applies; earlier days keep theirs', async () => {
    const { site, consumerA, consumerB, names } = await balancedQuartier();
    expect(site).toMatchObject({ allocationKey: 'priority', allocationKeyValidFrom: null });
    expect(await quarterHour(a.api, site.id, MAR_NOON, names)).toEqual(PRIORITY);

    // Shares alone change nothing while the key is priority: nothing is re-balanced.
    for (const [consumer, share] of [[consumerA, '0.6'], [consumerB, '0.3']] as const) {
      const patched = await a.api.patch(`/v1/meter-balancing-settings/${(await settingOf(a.api, consumer.id)).id}`, { share });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    }
    expect((await settingOf(a.api, consumerA.id)).share).toBe('0.600000');
    expect((await a.api.get(`/v1/sites/${site.id}/balancing-status`)).body.pendingRanges).toBe(0);

    const toStatic = await a.api.patch(`/v1/sites/${site.id}`, { allocationKey: 'static', allocationKeyValidFrom: '2026-03-01' });
    expect(toStatic.status).toBe(200);
    expect(Object.keys(toStatic.body.data)).toEqual(['id', 'name', 'type', 'balanceResolution', 'allocationKey', 'allocationKeyValidFrom', 'address', 'customAttributes', 'createdAt', 'updatedAt']);
    expect(toStatic.body.data).toMatchObject({ allocationKey: 'static', allocationKeyValidFrom: '2026-03-01' });
    expect(await queryRows(app.database.url, 'select allocation_keys from sites where id = $1', [site.id])).toEqual([{ allocation_keys: [{ key: 'static', validFrom: '2026-03-01' }] }]);
    await waitForBalance(a.api, site.id, LAST_QH);
    // min(demand, share x 2 kWh): A min(1, 1.2) = 1, B min(1.5, 0.6) = 0.6; A's unused 0.2 and the
    // unshared 0.2 are fed in, not passed on to B.
    expect(await quarterHour(a.api, site.id, MAR_NOON, names)).toEqual({ 'local A PV': 1, 'local B PV': 0.6, 'grid B -': 0.9, 'feed_in - PV': 0.4 });
    expect(await quarterHour(a.api, site.id, FEB_NOON, names)).toEqual(PRIORITY);

    const toDynamic = await a.api.patch(`/v1/sites/${site.id}`, { allocationKey: 'dynamic', allocationKeyValidFrom: '2026-03-02' });
    expect(toDynamic.body.data).toMatchObject({ allocationKey: 'dynamic', allocationKeyValidFrom: '2026-03-02' });
    await waitForBalance(a.api, site.id, LAST_QH);
    // 2 kWh for 2.5 kWh of demand: A 2 x 1 / 2.5 = 0.8, B 2 x 1.5 / 2.5 = 1.2.
    expect(await quarterHour(a.api, site.id, MAR_NOON, names)).toEqual({ 'local A PV': 0.8, 'local B PV': 1.2, 'grid A -': 0.2, 'grid B -': 0.3 });
    expect(await quarterHour(a.api, site.id, FEB_NOON, names)).toEqual(PRIORITY);
    expect((await a.api.get(`/v1/sites/${site.id}`)).body).toMatchObject({ allocationKey: 'dynamic', allocationKeyValidFrom: '2026-03-02' });
    expect((await queryRows(app.database.url, 'select allocation_keys from sites where id = $1', [site.id]))[0]!.allocation_keys).toEqual([
      { key: 'static', validFrom: '2026-03-01' },
      { key: 'dynamic', validFrom: '2026-03-02' },
    ]);

    const graph = await a.api.graphql('query($id: ID!) { site(id: $id) { allocationKey allocationKeyValidFrom balancingSettings { share } } }', { id: site.id });
    expect(graph.body.data.site).toMatchObject({ allocationKey: 'dynamic', allocationKeyValidFrom: '2026-03-02' });
    expect(graph.body.data.site.balancingSettings.map((s: any) => s.share).sort()).toEqual(['0.300000', '0.600000', null]);
  }, 60_000);

  it('refuses shares summing above 1 on a common day and malformed shares; the settings stay as they were', async () => {
    const { site, consumers } = await balancedSite(a.api, [null, null]);
    const [consumerA, consumerB] = consumers as [Record<string, any>, Record<string, any>];
    await a.api.patch(`/v1/meter-balancing-settings/${(await settingOf(a.api, consumerA.id)).id}`, { share: '0.6' });
    const settingB = await settingOf(a.api, consumerB.id);
    await a.api.patch(`/v1/meter-balancing-settings/${settingB.id}`, { share: '0.3' });

    const tooMuch = await a.api.patch(`/v1/meter-balancing-settings/${settingB.id}`, { share: '0.5' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body).toMatchObject({ code: 'shares_exceed_one', detail: expect.stringContaining('2026-01-01') });
    expect(tooMuch.body.detail).toContain('1.100000');
    expect((await a.api.get(`/v1/meter-balancing-settings/${settingB.id}`)).body.share).toBe('0.300000');

    const third = await fixtures.meter(a.api, site.id);
    const body = { siteId: site.id, meterId: third.id, balancing: 'participant', startDate: '2026-06-01' };
    const later = await a.api.post('/v1/meter-balancing-settings', { ...body, share: '0.2' });
    expect([later.status, later.body.code, later.body.detail]).toEqual([409, 'shares_exceed_one', expect.stringContaining('2026-06-01')]);
    // Ending A's setting before June leaves room.
    await a.api.patch(`/v1/meter-balancing-settings/${(await settingOf(a.api, consumerA.id)).id}`, { endDate: '2026-06-01' });
    expect((await a.api.post('/v1/meter-balancing-settings', { ...body, share: '0.7' })).status).toBe(201);

    for (const [share, code] of [['1.5', 'out_of_range'], ['0.1234567', 'invalid_amount'], ['0', 'invalid_amount'], ['-0.1', 'invalid_amount']]) {
      const bad = await a.api.patch(`/v1/meter-balancing-settings/${settingB.id}`, { share });
      expect([bad.status, bad.body.errors], share).toEqual([400, [{ path: 'share', code, message: expect.any(String) }]]);
    }
    expect(await queryRows(app.database.url, 'select share_micros from meter_balancing_settings where id = $1', [settingB.id])).toEqual([{ share_micros: 300_000 }]);
  });

  it('takes the key on creation, dated from the first day of the current month unless given, and only on balanced sites', async () => {
    const firstOfMonth = `${calendarDateOf(new Date(), 'Europe/Berlin').slice(0, 7)}-01`;
    expect(await fixtures.site(a.api, { allocationKey: 'dynamic' })).toMatchObject({ allocationKey: 'dynamic', allocationKeyValidFrom: firstOfMonth });
    const dated = await fixtures.site(a.api, { allocationKey: 'static', allocationKeyValidFrom: '2026-02-01' });
    expect(dated).toMatchObject({ allocationKey: 'static', allocationKeyValidFrom: '2026-02-01' });
    const changed = await a.api.patch(`/v1/sites/${dated.id}`, { allocationKey: 'dynamic' });
    expect(changed.body.data).toMatchObject({ allocationKey: 'dynamic', allocationKeyValidFrom: firstOfMonth });

    const unbalanced = await a.api.post('/v1/sites', { name: 'Einzelhaus', type: 'unbalanced_accurate', address: { locality: 'Berlin', postCode: '10115', country: 'DE' }, allocationKey: 'static' });
    expect([unbalanced.status, unbalanced.body.errors]).toEqual([400, [{ path: 'allocationKey', code: 'site_not_balanced', message: expect.any(String) }]]);
    const toUnbalanced = await a.api.patch(`/v1/sites/${dated.id}`, { type: 'unbalanced_accurate' });
    expect(toUnbalanced.body.errors).toEqual([{ path: 'allocationKey', code: 'site_not_balanced', message: expect.any(String) }]);
    const unknown = await a.api.patch(`/v1/sites/${dated.id}`, { allocationKey: 'random', allocationKeyValidFrom: '2026-02-30' });
    expect(unknown.body.errors.map((e: any) => [e.path, e.code])).toEqual([['allocationKey', 'invalid_value'], ['allocationKeyValidFrom', 'invalid_date']]);

    const graph = await a.api.graphql('mutation($id: ID!, $input: SiteInput!) { updateSite(id: $id, input: $input) { allocationKey allocationKeyValidFrom } }', {
      id: dated.id,
      input: { allocationKey: 'priority', allocationKeyValidFrom: '2026-04-01' },
    });
    expect(graph.body.data.updateSite).toEqual({ allocationKey: 'priority', allocationKeyValidFrom: '2026-04-01' });
  });

  it('refuses key and setting changes that would re-balance an invoiced period until the invoice is cancelled', async () => {
    const { site, consumerA, consumerB, names } = await balancedQuartier();
    for (const [consumer, share] of [[consumerA, '0.6'], [consumerB, '0.3']] as const) {
      await a.api.patch(`/v1/meter-balancing-settings/${(await settingOf(a.api, consumer.id)).id}`, { share });
    }
    await a.api.patch(`/v1/sites/${site.id}`, { allocationKey: 'static', allocationKeyValidFrom: '2026-03-01' });
    await waitForBalance(a.api, site.id, LAST_QH);
    const invoice = await invoiceMarch2(site.id, consumerA.id);
    const conflict = { code: 'period_invoiced', detail: expect.stringContaining(invoice.id) };
    const billed = { 'local A PV': 1, 'local B PV': 0.6, 'grid B -': 0.9, 'feed_in - PV': 0.4 };
    expect(await quarterHour(a.api, site.id, MAR_NOON, names)).toEqual(billed);

    // A correction inside the invoiced day is stored, not balanced, and reported.
    expect((await a.api.post('/v1/measurements', { measurements: [{ meterId: consumerA.id, timestamp: MAR_NOON, value: 2 }] })).status).toBe(201);
    const held = await waitForBalance(a.api, site.id, LAST_QH);
    expect(held.heldBack).toEqual([{ from: MAR_NOON, to: MAR_NOON, invoiceId: invoice.id }]);
    expect(await quarterHour(a.api, site.id, MAR_NOON, names)).toEqual(billed);
    expect((await a.api.get(`/v1/measurements?meterId=${consumerA.id}&startDateTime=${MAR_NOON}&endDateTime=2026-03-02T09:15:00.000Z`)).body.data[0].value).toBe(2);

    const before = (await a.api.get(`/v1/sites/${site.id}`)).body;
    const keyChange = await a.api.patch(`/v1/sites/${site.id}`, { allocationKey: 'dynamic', allocationKeyValidFrom: '2026-03-02' });
    expect([keyChange.status, keyChange.body]).toEqual([409, expect.objectContaining(conflict)]);
    expect(keyChange.body.detail).toContain(invoice.number);
    expect((await a.api.get(`/v1/sites/${site.id}`)).body).toEqual(before);
    // From the day after the invoiced one, nothing billed changes: re-balancing the UTC day that
    // ends in 3 March keeps the invoiced quarter hours as stored, the held correction unapplied.
    expect((await a.api.patch(`/v1/sites/${site.id}`, { allocationKey: 'dynamic', allocationKeyValidFrom: '2026-03-03' })).status).toBe(200);
    await waitForBalance(a.api, site.id, LAST_QH);
    expect(await quarterHour(a.api, site.id, MAR_NOON, names)).toEqual(billed);

    const settingB = await settingOf(a.api, consumerB.id);
    // The share counts under the static key, which covers the invoiced day.
    expect(await a.api.patch(`/v1/meter-balancing-settings/${settingB.id}`, { share: '0.2' })).toMatchObject({ status: 409, body: conflict });
    // This protects priority sites too: ending a participation re-balances the days after.
    expect(await a.api.patch(`/v1/meter-balancing-settings/${settingB.id}`, { endDate: '2026-03-02' })).toMatchObject({ status: 409, body: conflict });
    // A priority only counts under the priority key, before 1 March: nothing invoiced changes.
    expect((await a.api.patch(`/v1/meter-balancing-settings/${settingB.id}`, { priority: 4 })).status).toBe(200);
    expect((await a.api.get(`/v1/meter-balancing-settings/${settingB.id}`)).body).toMatchObject({ share: '0.300000', endDate: null, priority: 4 });
    // The priority re-balances the days it counts for; the check below is about sweeps after that.
    await waitForBalance(a.api, site.id, LAST_QH);

    // Sweeps (every second here) keep it held while the invoice stands.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await a.api.get(`/v1/sites/${site.id}/balancing-status`)).body).toMatchObject({ pendingRanges: 0, heldBack: held.heldBack });

    expect((await a.api.post(`/v1/invoices/${invoice.id}/cancel`)).status).toBe(201);
    expect((await a.api.patch(`/v1/meter-balancing-settings/${settingB.id}`, { share: '0.2' })).status).toBe(200);
    expect((await a.api.patch(`/v1/sites/${site.id}`, { allocationKey: 'dynamic', allocationKeyValidFrom: '2026-03-02' })).status).toBe(200);
    // The sweeper releases the held correction once its invoice is cancelled.
    for (const deadline = Date.now() + 20_000; (await a.api.get(`/v1/sites/${site.id}/balancing-status`)).body.heldBack.length > 0; ) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await waitForBalance(a.api, site.id, LAST_QH);
    // Dynamic with A's corrected 2 kWh: 2 x 2 / 3.5 = 1.142857 (1,143 Wh), B 2 x 1.5 / 3.5 (857 Wh).
    expect(await quarterHour(a.api, site.id, MAR_NOON, names)).toEqual({ 'local A PV': 1.143, 'local B PV': 0.857, 'grid A -': 0.857, 'grid B -': 0.643 });
  }, 90_000);
});

/** Bills 2 March (Berlin) for consumer A's contract on the site and issues the invoice. */
async function invoiceMarch2(siteId: string, meterId: string): Promise<Record<string, any>> {
  const vat = await create(a.api, '/v1/tax-rates', { name: `VAT ${Math.random()}`, percentage: '19.00', validFrom: '2020-01-01' });
  const product = await fixtures.product(a.api);
  const group = await create(a.api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Mieterstrom' });
  for (const [kind, amount] of [['local_energy', '0.200000'], ['grid_energy', '0.300000']]) {
    const component = await create(a.api, '/v1/price-components', { priceComponentGroupId: group.id, name: kind, kind, taxRateId: vat.id });
    await create(a.api, '/v1/prices', { priceComponentId: component.id, validFrom: '2026-01-01', amount });
  }
  const customer = await fixtures.customer(a.api);
  const contract = await fixtures.contract(a.api, { customerId: customer.id, electricityProductId: product.id, siteId });
  await create(a.api, '/v1/contract-meters', { contractId: contract.id, siteId, meterId, startDate: '2026-01-01' });
  const run = await create(a.api, '/v1/bill-runs', { periodStart: '2026-03-02', periodEnd: '2026-03-03', siteIds: [siteId] });
  expect((await waitForRun(a.api, run.id, 'created')).counts).toMatchObject({ invoices: 1, errors: 0 });
  expect((await a.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
  await waitForRun(a.api, run.id, 'completed');
  const [invoice] = (await a.api.get(`/v1/invoices?billRunId=${run.id}`)).body.data;
  expect(invoice).toMatchObject({ state: 'issued', periodStart: '2026-03-02', periodEnd: '2026-03-03' });
  return invoice;
}
