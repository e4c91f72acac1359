import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { balancedSite, dayOfValues, waitForBalance } from '../support/balancing.js';
import { waitForRun } from '../support/billing.js';
import { create, fixtures } from '../support/fixtures.js';
import type { Api } from '../support/http.js';
import { invoicePdfText } from '../support/pdf.js';
import { blocksAnother, waitFor } from '../support/waiting.js';

/** October 1 and 2, 2026 in Berlin. */
const OCT_1 = '2026-09-30T22:00:00.000Z';
const OCT_2 = '2026-10-01T22:00:00.000Z';
const LAST_INTERVAL = '2026-10-02T21:45:00.000Z';

/** A product with a component per kind at these prices from 2026, under 19 % VAT (local energy at 0.20 and grid energy at 0.30 by default). */
async function product(api: Api, prices: Record<string, string> = { local_energy: '0.200000', grid_energy: '0.300000' }) {
  const vat = await create(api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
  const created = await fixtures.product(api);
  const group = await create(api, '/v1/price-component-groups', { electricityProductId: created.id, name: 'Strom' });
  for (const [kind, amount] of Object.entries(prices)) {
    const component = await create(api, '/v1/price-components', { priceComponentGroupId: group.id, name: kind, kind, taxRateId: vat.id });
    await create(api, '/v1/prices', { priceComponentId: component.id, validFrom: '2026-01-01', amount });
  }
  return created;
}

const linesOf = async (api: Api, invoiceId: string) =>
  ((await api.get(`/v1/line-items?invoiceId=${invoiceId}`)).body.data as Record<string, any>[]).map((l) => ({ id: l.id, kind: l.kind, quantity: l.quantity, netAmount: l.netAmount }));

const withoutIds = (lines: Record<string, unknown>[]) => lines.map(({ id: _id, ...line }) => line);

/**
 * A balanced site billed for October 1-2: producer 1 kWh per quarter hour, consumers of priority 1
 * and 2 using 0.6 kWh each (the first gets 0.6 locally, the second 0.4 locally and 0.2 from the grid).
 */
async function billableSite(account: SignedUp, productId: string) {
  const { site, producer, consumers } = await balancedSite(account.api, [1, 2]);
  for (const day of [OCT_1, OCT_2]) {
    const values = [...dayOfValues(producer.id, day, () => 1), ...consumers.flatMap((c) => dayOfValues(c.id, day, () => 0.6))];
    expect((await account.api.post('/v1/measurements', { measurements: values })).status).toBe(201);
  }
  await waitForBalance(account.api, site.id, LAST_INTERVAL);
  const contracts: Record<string, any>[] = [];
  for (const consumer of consumers) {
    const customer = await fixtures.customer(account.api);
    const contract = await fixtures.contract(account.api, { customerId: customer.id, electricityProductId: productId, siteId: site.id }, { startDate: '2026-01-01' });
    await create(account.api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: consumer.id, startDate: '2026-01-01' });
    contracts.push(contract);
  }
  return { site, producer, consumers, contracts };
}

/** A bill run over October 1 and 2, waited for until drafted; answers it with its drafts by contract id. */
async function draftedRun(account: SignedUp) {
  const run = await create(account.api, '/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-10-03' });
  await waitForRun(account.api, run.id, 'created');
  const drafts = new Map(((await account.api.get(`/v1/invoices?billRunId=${run.id}&limit=10`)).body.data as Record<string, any>[]).map((d) => [d.contractId, d]));
  return { run, drafts };
}

describe('bill runs after the data changed under their drafts', () => {
  let app: TestApp;
  let db: pg.Client;

  beforeAll(async () => {
    app = await startTestApp({ QUEUE_POLL_SECONDS: '0.5', RATE_LIMIT_PER_MINUTE: '100000', BILL_RUN_BATCH_SIZE: '2' });
    db = new pg.Client({ connectionString: app.database.url });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await app.close();
  });

  const outdated = async () => (await db.query<{ invoice_id: string }>('select invoice_id from outdated_drafts order by invoice_id')).rows.map((r) => r.invoice_id);

  it('issues what the balancing says at issue: drafts of a site balanced again are drafted again, the same invoice with new lines', async () => {
    const a = await app.signUp();
    const productId = (await product(a.api)).id;
    const corrected = await billableSite(a, productId);
    const untouched = await billableSite(a, productId);
    const { run, drafts } = await draftedRun(a);
    expect(drafts.size).toBe(4);
    const [first, second] = corrected.contracts.map((c) => drafts.get(c.id)!);
    // 192 quarter hours: 115.2 kWh local; 76.8 kWh local and 38.4 kWh from the grid.
    expect(withoutIds(await linesOf(a.api, first!.id))).toEqual([{ kind: 'local_energy', quantity: '115.200', netAmount: '23.04' }]);
    expect(withoutIds(await linesOf(a.api, second!.id))).toEqual([
      { kind: 'local_energy', quantity: '76.800', netAmount: '15.36' },
      { kind: 'grid_energy', quantity: '38.400', netAmount: '11.52' },
    ]);
    const untouchedLines = await Promise.all(untouched.contracts.map((c) => linesOf(a.api, drafts.get(c.id)!.id)));

    // The first consumer's October 2 is corrected to 1.2 kWh per quarter hour: it now takes the
    // whole production that day (1 kWh local, 0.2 from the grid), the second only grid energy.
    const correction = dayOfValues(corrected.consumers[0]!.id, OCT_2, () => 1.2);
    expect((await a.api.post('/v1/measurements', { measurements: correction })).status).toBe(201);
    await waitForBalance(a.api, corrected.site.id, LAST_INTERVAL);
    // The balancing marked the drafts of its site, and only those; the drafts are unchanged until issued.
    expect(await outdated()).toEqual([first!.id, second!.id].sort());
    expect(withoutIds(await linesOf(a.api, first!.id))).toEqual([{ kind: 'local_energy', quantity: '115.200', netAmount: '23.04' }]);

    expect((await a.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    const completed = await waitForRun(a.api, run.id, 'completed');
    expect(completed.counts).toEqual({ total: 4, contracts: 4, invoices: 4, issued: 4, errors: 0 });
    // 57.6 + 96 = 153.6 kWh local (30.72) and 19.2 kWh grid (5.76): 36.48 net, 6.93 VAT.
    expect(withoutIds(await linesOf(a.api, first!.id))).toEqual([
      { kind: 'local_energy', quantity: '153.600', netAmount: '30.72' },
      { kind: 'grid_energy', quantity: '19.200', netAmount: '5.76' },
    ]);
    expect((await a.api.get(`/v1/invoices/${first!.id}`)).body).toMatchObject({ state: 'issued', netTotal: '36.48', grossTotal: '43.41', amountDue: '43.41' });
    // 38.4 kWh local (7.68) on October 1; 19.2 + 57.6 = 76.8 kWh grid (23.04).
    expect(withoutIds(await linesOf(a.api, second!.id))).toEqual([
      { kind: 'local_energy', quantity: '38.400', netAmount: '7.68' },
      { kind: 'grid_energy', quantity: '76.800', netAmount: '23.04' },
    ]);
    expect((await a.api.get(`/v1/invoices/${second!.id}`)).body).toMatchObject({ state: 'issued', netTotal: '30.72' });
    // The PDF's meter table, read from the measurements, agrees with the lines: 57.6 + 115.2 kWh.
    const pdf = await invoicePdfText(app.url, a.accessToken, first!.id);
    expect(pdf).toContain('172,800 kWh');
    expect(pdf).toContain('153,600');
    // Drafts of the other site were issued as drafted: the same lines, not written again.
    expect(await Promise.all(untouched.contracts.map((c) => linesOf(a.api, drafts.get(c.id)!.id)))).toEqual(untouchedLines);
    expect(await outdated()).toEqual([]);
    // Issued two drafts per batch, in id order: the two drafted again may fall into one batch or two.
    const logged = app.logs.map((line) => JSON.parse(line)).filter((line) => line.billRunId === run.id && line.msg === 'bill run drafts drafted again');
    expect([logged.reduce((n, line) => n + line.redrafted, 0), logged.reduce((n, line) => n + line.dropped, 0)]).toEqual([2, 0]);
  });

  it('drafts again the drafts on an unbalanced site whose meter data was corrected, and only those the correction reaches', async () => {
    const a = await app.signUp();
    const site = await fixtures.site(a.api, { type: 'unbalanced_accurate' });
    const energyProduct = await product(a.api, { energy: '0.300000' });
    const contracts: Record<string, any>[] = [];
    const meters: Record<string, any>[] = [];
    for (let i = 0; i < 2; i++) {
      const meter = await fixtures.meter(a.api, site.id, { measuring: 'load_profile_accurate', startDate: '2026-09-30T22:00:00.000Z' });
      const values = [...dayOfValues(meter.id, OCT_1, () => 0.5), ...dayOfValues(meter.id, OCT_2, () => 0.5)];
      expect((await a.api.post('/v1/measurements', { measurements: values })).status).toBe(201);
      const customer = await fixtures.customer(a.api);
      const contract = await fixtures.contract(a.api, { customerId: customer.id, electricityProductId: energyProduct.id, siteId: site.id }, { startDate: '2026-01-01' });
      await create(a.api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: meter.id, startDate: '2026-01-01' });
      contracts.push(contract);
      meters.push(meter);
    }
    const { run, drafts } = await draftedRun(a);
    const [first, second] = contracts.map((c) => drafts.get(c.id)!);
    // 192 quarter hours x 0.5 kWh = 96 kWh x 0.30 = 28.80.
    expect(withoutIds(await linesOf(a.api, first!.id))).toEqual([{ kind: 'energy', quantity: '96.000', netAmount: '28.80' }]);
    const secondLines = await linesOf(a.api, second!.id);

    // The first meter's October 2 is corrected to 0.75 kWh per quarter hour; a value of November 9
    // of the second meter lies far from the period.
    expect((await a.api.post('/v1/measurements', { measurements: dayOfValues(meters[0]!.id, OCT_2, () => 0.75) })).status).toBe(201);
    const november = { meterId: meters[1]!.id, timestamp: '2026-11-09T11:00:00.000Z', value: 0.5 };
    expect((await a.api.post('/v1/measurements', { measurements: [november] })).status).toBe(201);
    expect(await outdated()).toEqual([first!.id]);

    expect((await a.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    expect((await waitForRun(a.api, run.id, 'completed')).counts).toMatchObject({ invoices: 2, issued: 2, errors: 0 });
    // 48 + 72 = 120 kWh x 0.30 = 36.00, 19 % = 6.84.
    expect(withoutIds(await linesOf(a.api, first!.id))).toEqual([{ kind: 'energy', quantity: '120.000', netAmount: '36.00' }]);
    expect((await a.api.get(`/v1/invoices/${first!.id}`)).body).toMatchObject({ state: 'issued', netTotal: '36.00', grossTotal: '42.84' });
    expect(await linesOf(a.api, second!.id)).toEqual(secondLines);
    expect(await invoicePdfText(app.url, a.accessToken, first!.id)).toContain('120,000 kWh');
    expect(await outdated()).toEqual([]);

    // A correction of an issued period is stored and leaves the invoice as issued.
    expect((await a.api.post('/v1/measurements', { measurements: dayOfValues(meters[0]!.id, OCT_2, () => 1) })).status).toBe(201);
    expect(await outdated()).toEqual([]);
    expect(withoutIds(await linesOf(a.api, first!.id))).toEqual([{ kind: 'energy', quantity: '120.000', netAmount: '36.00' }]);
  });

  it('drafts again the drafts whose prices or meter assignments changed after drafting', async () => {
    const a = await app.signUp();
    const { contracts } = await billableSite(a, (await product(a.api)).id);
    const { run, drafts } = await draftedRun(a);
    const [first, second] = [drafts.get(contracts[0]!.id)!, drafts.get(contracts[1]!.id)!];
    expect(await outdated()).toEqual([]);

    // The second contract's meter leaves it after October 1: that contract's draft is outdated.
    const [assignment] = (await a.api.get(`/v1/contract-meters?contractId=${contracts[1]!.id}`)).body.data;
    expect((await a.api.patch(`/v1/contract-meters/${assignment.id}`, { endDate: '2026-10-02' })).status).toBe(200);
    expect(await outdated()).toEqual([second.id]);
    // The local energy price goes from 0.20 to 0.22: every draft of the product is outdated.
    const localPrice = ((await a.api.get('/v1/prices?limit=100')).body.data as Record<string, any>[]).find((p) => p.amount === '0.200000')!;
    expect((await a.api.patch(`/v1/prices/${localPrice.id}`, { amount: '0.220000' })).status).toBe(200);
    expect(await outdated()).toEqual([first.id, second.id].sort());

    expect((await a.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    expect((await waitForRun(a.api, run.id, 'completed')).counts).toMatchObject({ invoices: 2, issued: 2, errors: 0 });
    // 115.2 kWh x 0.22 = 25.344 -> 25.34.
    expect(withoutIds(await linesOf(a.api, first.id))).toEqual([{ kind: 'local_energy', quantity: '115.200', netAmount: '25.34' }]);
    // October 1 only: 38.4 kWh local x 0.22 = 8.448 -> 8.45, 19.2 kWh grid x 0.30 = 5.76.
    expect(withoutIds(await linesOf(a.api, second.id))).toEqual([
      { kind: 'local_energy', quantity: '38.400', netAmount: '8.45' },
      { kind: 'grid_energy', quantity: '19.200', netAmount: '5.76' },
    ]);
    // The price an issued invoice billed is the one its lines name.
    expect((await a.api.patch(`/v1/prices/${localPrice.id}`, { amount: '0.230000' })).body.code).toBe('price_in_use');
    expect(await outdated()).toEqual([]);

  });

  it('holds a price change off while a batch drafts or issues: it marks the new drafts, or finds the price billed', async () => {
    const lockWaiters = async () =>
      (await db.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = current_database() and cardinality(pg_blocking_pids(pid)) > 0')).rows[0]!.n;
    /** PATCHes the local energy price while this test keeps a batch waiting; checks the PATCH waits for the batch, then lets the batch go on. */
    async function changePriceDuringBatch(account: SignedUp): Promise<{ status: number; code?: string }> {
      await waitFor('the batch waiting on this test', () => blocksAnother(db));
      const localPrice = ((await account.api.get('/v1/prices?limit=100')).body.data as Record<string, any>[]).find((p) => p.amount === '0.200000')!;
      let settled = false;
      const patching = account.api.patch(`/v1/prices/${localPrice.id}`, { amount: '0.220000' }).finally(() => (settled = true));
      await waitFor('the price change waiting for the batch', async () => settled || (await lockWaiters()) >= 2);
      expect(settled).toBe(false);
      await db.query('rollback');
      const { status, body } = await patching;
      return { status, code: body.code };
    }

    // Drafting: the batch has read the prices when it waits to insert its drafts beside an
    // uncommitted invoice of this test; the change commits after it and marks both drafts.
    const a = await app.signUp();
    const { contracts } = await billableSite(a, (await product(a.api)).id);
    await db.query('begin');
    await db.query(
      `insert into invoices (id, account_id, kind, contract_id, customer_id, period_start, period_end, state, net_total, taxes, gross_total, prepayments_total, amount_due, prepayment_ids, template_id, created_at, updated_at)
       values (gen_random_uuid(), $1, 'invoice', $2, $3, '2026-10-01', '2026-10-02', 'draft', 0, '[]', 0, 0, 0, '[]', gen_random_uuid(), now(), now())`,
      [a.accountId, contracts[1]!.id, contracts[1]!.customerId],
    );
    const drafting = draftedRun(a);
    expect(await changePriceDuringBatch(a)).toEqual({ status: 200, code: undefined });
    const { run, drafts } = await drafting;
    expect(await outdated()).toEqual([...drafts.values()].map((d) => d.id).sort());
    expect((await a.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    await waitForRun(a.api, run.id, 'completed');
    // 115.2 kWh x 0.22 = 25.344 -> 25.34.
    expect(withoutIds(await linesOf(a.api, drafts.get(contracts[0]!.id)!.id))).toEqual([{ kind: 'local_energy', quantity: '115.200', netAmount: '25.34' }]);

    // Issuing: the batch waits for a draft this test locks; the change waits for the batch, and then
    // an issued invoice has billed the price.
    const b = await app.signUp();
    const billed = await billableSite(b, (await product(b.api)).id);
    const issuing = await draftedRun(b);
    const first = issuing.drafts.get(billed.contracts[0]!.id)!;
    await db.query('begin');
    await db.query('select 1 from invoices where id = $1 for update', [first.id]);
    expect((await b.api.post(`/v1/bill-runs/${issuing.run.id}/complete`)).status).toBe(202);
    expect(await changePriceDuringBatch(b)).toEqual({ status: 409, code: 'price_in_use' });
    await waitForRun(b.api, issuing.run.id, 'completed');
    // 115.2 kWh x 0.20 = 23.04.
    expect(withoutIds(await linesOf(b.api, first.id))).toEqual([{ kind: 'local_energy', quantity: '115.200', netAmount: '23.04' }]);
  });

  it('bills the customer a contract has at issue: a contract that changed hands since drafting is drafted again for the new one', async () => {
    const a = await app.signUp();
    const { contracts } = await billableSite(a, (await product(a.api)).id);
    const { run, drafts } = await draftedRun(a);
    const [first, second] = [drafts.get(contracts[0]!.id)!, drafts.get(contracts[1]!.id)!];
    const successor = await fixtures.customer(a.api, { lastName: 'Nachmieterin' });
    const homeless = await fixtures.customer(a.api, { address: null });
    expect((await a.api.patch(`/v1/contracts/${contracts[0]!.id}`, { customerId: successor.id })).status).toBe(200);
    expect((await a.api.patch(`/v1/contracts/${contracts[1]!.id}`, { customerId: homeless.id })).status).toBe(200);
    expect(await outdated()).toEqual([first.id, second.id].sort());

    expect((await a.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    const completed = await waitForRun(a.api, run.id, 'completed');
    expect(completed.counts).toMatchObject({ contracts: 2, invoices: 1, issued: 1, errors: 1 });
    expect(completed.errors).toEqual([{ contractId: contracts[1]!.id, code: 'customer_address_missing', message: expect.stringContaining(homeless.id) }]);
    expect((await a.api.get(`/v1/invoices/${first.id}`)).body).toMatchObject({ state: 'issued', customerId: successor.id });
    expect(await invoicePdfText(app.url, a.accessToken, first.id)).toContain('Nachmieterin');
    expect((await a.api.get(`/v1/invoices/${second.id}`)).status).toBe(404);
  });

  it('marks the drafts of a product when its components or groups change, every draft when a tax rate does, and forgets the marks of a deleted run', async () => {
    const a = await app.signUp();
    const { id: productId } = await product(a.api);
    await billableSite(a, productId);
    const { run, drafts: byContract } = await draftedRun(a);
    const drafts = [...byContract.values()].map((d) => d.id).sort();
    expect(drafts).toHaveLength(2);
    const forget = () => db.query('delete from outdated_drafts where invoice_id = any($1::uuid[])', [drafts]);

    const [group] = (await a.api.get(`/v1/price-component-groups?electricityProductId=${productId}`)).body.data;
    const [component] = (await a.api.get(`/v1/price-components?priceComponentGroupId=${group.id}`)).body.data;
    expect((await a.api.patch(`/v1/price-components/${component.id}`, { name: 'Lokalstrom' })).status).toBe(200);
    expect(await outdated()).toEqual(drafts);
    await forget();
    expect((await a.api.patch(`/v1/price-component-groups/${group.id}`, { name: 'Mieterstrom' })).status).toBe(200);
    expect(await outdated()).toEqual(drafts);
    await forget();
    // A component of another product leaves these drafts alone.
    const vat = (await a.api.get('/v1/tax-rates')).body.data[0];
    const other = await create(a.api, '/v1/price-component-groups', { electricityProductId: (await fixtures.product(a.api)).id, name: 'Anders' });
    await create(a.api, '/v1/price-components', { priceComponentGroupId: other.id, name: 'Grundpreis', kind: 'base_fee', taxRateId: vat.id });
    expect(await outdated()).toEqual([]);
    expect((await a.api.patch(`/v1/tax-rates/${vat.id}`, { validUntil: '2030-01-01' })).status).toBe(200);
    expect(await outdated()).toEqual(drafts);
    expect((await a.api.delete(`/v1/bill-runs/${run.id}`)).status).toBe(204);
    expect(await outdated()).toEqual([]);
  });

  it('takes a draft whose contract can no longer be billed out of the run, with the error on the run, and one the run no longer bills', async () => {
    const a = await app.signUp();
    const { site, contracts } = await billableSite(a, (await product(a.api)).id);
    const { run, drafts: byContract } = await draftedRun(a);
    const drafts = [...byContract.values()];
    expect(drafts).toHaveLength(2);
    const draftOf = (contract: Record<string, any>) => byContract.get(contract.id)!;

    // The second contract's meter leaves it before the period: the run no longer bills it.
    const [assignment] = (await a.api.get(`/v1/contract-meters?contractId=${contracts[1]!.id}`)).body.data;
    expect((await a.api.patch(`/v1/contract-meters/${assignment.id}`, { endDate: '2026-10-01' })).status).toBe(200);
    expect(await outdated()).toEqual([draftOf(contracts[1]!).id]);
    // A third consumer joins the balancing from October 2 without any data: the site is balanced
    // again from then on, and October 2 is no longer complete.
    const newcomer = await fixtures.meter(a.api, site.id, { direction: 'consumer', measuring: 'load_profile_accurate', startDate: '2025-12-31T23:00:00.000Z' });
    await create(a.api, '/v1/meter-balancing-settings', { siteId: site.id, meterId: newcomer.id, balancing: 'participant', startDate: '2026-10-02', priority: 3 });
    await waitForBalance(a.api, site.id, '2026-10-01T21:45:00.000Z');
    expect(await outdated()).toEqual(drafts.map((d) => d.id).sort());

    expect((await a.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    const completed = await waitForRun(a.api, run.id, 'completed');
    expect(completed.counts).toMatchObject({ contracts: 1, invoices: 0, issued: 0, errors: 1 });
    expect(completed.errors).toEqual([{ contractId: contracts[0]!.id, code: 'incomplete_balancing', message: expect.stringContaining('are not balanced') }]);
    for (const draft of drafts) expect((await a.api.get(`/v1/invoices/${draft.id}`)).status).toBe(404);
    expect((await db.query('select count(*)::int as n from line_items where invoice_id = any($1::uuid[])', [drafts.map((d) => d.id)])).rows[0].n).toBe(0);
    expect(await outdated()).toEqual([]);
  });
});
