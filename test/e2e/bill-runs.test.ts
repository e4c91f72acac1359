import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { balancedSite, waitForBalance } from '../support/balancing.js';
import { numberingYearOf, waitForRun } from '../support/billing.js';
import { create, fixtures } from '../support/fixtures.js';
import type { Api } from '../support/http.js';
import { invoicePdfText } from '../support/pdf.js';
import { startReceiver } from '../support/receiver.js';

const QH = 15 * 60 * 1000;
/** October 2026 in Berlin: 31 days, the 25th 25 hours long (DST ends), so 2,980 quarter hours. */
const OCTOBER = { from: Date.parse('2026-09-30T22:00:00.000Z'), to: Date.parse('2026-10-31T23:00:00.000Z') };
const series = (meterId: string, kwh: number, range = OCTOBER) =>
  Array.from({ length: (range.to - range.from) / QH }, (_, i) => ({ meterId, timestamp: new Date(range.from + i * QH).toISOString(), value: kwh }));

/** A product with VAT, local/grid/base-fee components and their prices. */
async function mieterstromProduct(api: Api) {
  const vat = await create(api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
  const product = await fixtures.product(api);
  const group = await create(api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Mieterstrom' });
  const prices: Record<string, Record<string, any>[]> = {};
  for (const [kind, versions] of Object.entries({
    local_energy: [['2026-01-01', '0.200000'], ['2026-10-11', '0.250000']],
    grid_energy: [['2026-01-01', '0.300000']],
    base_fee: [['2026-01-01', '12.000000']],
  })) {
    const component = await create(api, '/v1/price-components', { priceComponentGroupId: group.id, name: kind, kind, taxRateId: vat.id });
    prices[kind] = [];
    for (const [validFrom, amount] of versions) prices[kind].push(await create(api, '/v1/prices', { priceComponentId: component.id, validFrom, amount }));
  }
  return { vat, product, prices };
}

const lines = async (api: Api, invoiceId: string) =>
  (await api.get(`/v1/line-items?invoiceId=${invoiceId}`)).body.data.map((l: Record<string, unknown>) => ({
    kind: l.kind,
    quantity: l.quantity,
    unitPrice: l.unitPrice,
    netAmount: l.netAmount,
    periodStart: l.periodStart,
    periodEnd: l.periodEnd,
  }));

describe('bill runs', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ QUEUE_POLL_SECONDS: '0.5', RATE_LIMIT_PER_MINUTE: '100000', WEBHOOK_POLL_SECONDS: '0.1', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', BILL_RUN_BATCH_SIZE: '2' });
  });
  afterAll(() => app.close());

  it('names unknown bill runs and line items in snake case, over REST and GraphQL', async () => {
    const { api } = await app.signUp();
    const unknown = '6f1c0c5e-0000-4000-8000-000000000000';
    for (const [path, code, detail] of [
      [`/v1/line-items/${unknown}`, 'line_item_not_found', `No line item with id ${unknown}.`],
      [`/v1/bill-runs/${unknown}`, 'bill_run_not_found', `No bill run with id ${unknown}.`],
    ]) {
      const response = await api.get(path!);
      expect([response.status, response.body], path).toEqual([404, expect.objectContaining({ status: 404, code, detail })]);
    }
    const graphql = await api.graphql(`query($id: ID!) { lineItem(id: $id) { id } }`, { id: unknown });
    expect(graphql.body.errors[0].extensions.code).toBe('line_item_not_found');
  });

  it('bills a balanced month: drafts checked line by line, then numbers, locked prepayments, PDFs and events; a rerun creates nothing', async () => {
    const a = await app.signUp('Stadtwerke A');
    const receiver = await startReceiver();
    await create(a.api, '/v1/webhook-endpoints', { url: receiver.url, events: ['*'] });
    // Producer 1.5 kWh per quarter hour; consumers of priority 1, 2, 3 use 1, 1 and 0.4 kWh: the
    // first gets 1 kWh locally, the second 0.5 kWh (and 0.5 from the grid), the third only grid energy.
    const { site, producer, consumers } = await balancedSite(a.api, [1, 2, 3]);
    for (const [meterId, kwh] of [[producer.id, 1.5], [consumers[0]!.id, 1], [consumers[1]!.id, 1], [consumers[2]!.id, 0.4]] as const) {
      expect((await a.api.post('/v1/measurements', { measurements: series(meterId, kwh) })).status).toBe(201);
    }
    await waitForBalance(a.api, site.id, '2026-10-31T22:45:00.000Z', 60_000);
    const { product, prices } = await mieterstromProduct(a.api);
    const contracts: Record<string, any>[] = [];
    for (const [index, startDate] of ['2026-01-01', '2026-01-01', '2026-10-16'].entries()) {
      const customer = await fixtures.customer(a.api, { lastName: `Mieter ${index + 1}`, address: { line1: `Hausweg ${index + 1}`, locality: 'Berlin', postCode: '10115', country: 'DE' } });
      const contract = await fixtures.contract(a.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id }, { startDate });
      await create(a.api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: consumers[index]!.id, startDate });
      contracts.push(contract);
    }
    const prepayment = await create(a.api, '/v1/payments', { contractId: contracts[0]!.id, amount: '50.00', type: 'prepayment', state: 'received', dueDate: '2026-10-05' });

    const created = await a.api.post('/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-11-01' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ state: 'creating', phase: 'create', siteIds: null, periodStart: '2026-10-01', periodEnd: '2026-11-01' });
    const run = await waitForRun(a.api, created.body.id, 'created');
    expect(run).toMatchObject({ counts: { total: 3, contracts: 3, invoices: 3, issued: 0, errors: 0 }, errors: [] });
    const runLog = app.logs.map((line) => JSON.parse(line)).filter((line) => line.billRunId === run.id);
    expect(runLog.at(-1)).toMatchObject({ level: 30, msg: 'bill run create success', accountId: a.accountId, state: 'created', counts: { invoices: 3 } });
    expect(app.logs.some((line) => JSON.parse(line).msg === 'worker started')).toBe(true);

    const drafts = (await a.api.get(`/v1/invoices?billRunId=${run.id}&limit=10`)).body.data as Record<string, any>[];
    const draftOf = (contract: Record<string, any>) => drafts.find((d) => d.contractId === contract.id)!;
    expect(drafts.map((d) => [d.state, d.number, d.pdfUrl])).toEqual([['draft', null, null], ['draft', null, null], ['draft', null, null]]);
    // Oct 1-10: 960 quarter hours; Oct 11-31: 2,020 (the 25th has 100).
    expect(await lines(a.api, draftOf(contracts[0]!).id)).toEqual([
      { kind: 'local_energy', quantity: '960.000', unitPrice: '0.200000', netAmount: '192.00', periodStart: '2026-10-01', periodEnd: '2026-10-11' },
      { kind: 'local_energy', quantity: '2020.000', unitPrice: '0.250000', netAmount: '505.00', periodStart: '2026-10-11', periodEnd: '2026-11-01' },
      { kind: 'base_fee', quantity: '1.000000', unitPrice: '12.000000', netAmount: '12.00', periodStart: '2026-10-01', periodEnd: '2026-11-01' },
    ]);
    // 709.00 net, 19 % = 134.71, gross 843.71, less the 50.00 prepayment.
    expect(draftOf(contracts[0]!)).toMatchObject({ netTotal: '709.00', taxes: [{ percentage: '19.00', netAmount: '709.00', taxAmount: '134.71' }], grossTotal: '843.71', prepaymentsTotal: '50.00', amountDue: '793.71' });
    expect(await lines(a.api, draftOf(contracts[1]!).id)).toEqual([
      { kind: 'local_energy', quantity: '480.000', unitPrice: '0.200000', netAmount: '96.00', periodStart: '2026-10-01', periodEnd: '2026-10-11' },
      { kind: 'local_energy', quantity: '1010.000', unitPrice: '0.250000', netAmount: '252.50', periodStart: '2026-10-11', periodEnd: '2026-11-01' },
      { kind: 'grid_energy', quantity: '1490.000', unitPrice: '0.300000', netAmount: '447.00', periodStart: '2026-10-01', periodEnd: '2026-11-01' },
      { kind: 'base_fee', quantity: '1.000000', unitPrice: '12.000000', netAmount: '12.00', periodStart: '2026-10-01', periodEnd: '2026-11-01' },
    ]);
    // 807.50 net, 19 % = 153.425 -> 153.43 (half away from zero).
    expect(draftOf(contracts[1]!)).toMatchObject({ netTotal: '807.50', taxes: [{ taxAmount: '153.43' }], grossTotal: '960.93', prepaymentsTotal: '0.00', amountDue: '960.93' });
    // From the 16th: 1,540 quarter hours x 0.4 kWh = 616 kWh; base fee 16/31 = 0.516129 months x 12 = 6.19.
    expect(await lines(a.api, draftOf(contracts[2]!).id)).toEqual([
      { kind: 'grid_energy', quantity: '616.000', unitPrice: '0.300000', netAmount: '184.80', periodStart: '2026-10-16', periodEnd: '2026-11-01' },
      { kind: 'base_fee', quantity: '0.516129', unitPrice: '12.000000', netAmount: '6.19', periodStart: '2026-10-16', periodEnd: '2026-11-01' },
    ]);
    // 190.99 net, 19 % = 36.2881 -> 36.29.
    expect(draftOf(contracts[2]!)).toMatchObject({ netTotal: '190.99', grossTotal: '227.28', amountDue: '227.28' });
    // A draft's price can still change; the prepayment is not locked yet.
    expect((await a.api.get(`/v1/payments/${prepayment.id}`)).body.lockedAt).toBeNull();

    expect((await a.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    const completed = await waitForRun(a.api, run.id, 'completed');
    expect(completed.counts).toEqual({ total: 3, contracts: 3, invoices: 3, issued: 3, errors: 0 });
    const issued = ((await a.api.get(`/v1/invoices?billRunId=${run.id}&limit=10`)).body.data as Record<string, any>[]).sort((x, y) => x.number.localeCompare(y.number));
    expect(issued.map((i) => i.number)).toEqual(issued.map((i, n) => `INV-${numberingYearOf(i)}-00000${n + 1}`));
    for (const invoice of issued) {
      expect(invoice).toMatchObject({ state: 'issued', pdfUrl: `/v1/invoices/${invoice.id}/pdf` });
      expect(invoice.dueDate > invoice.issuedAt.slice(0, 10)).toBe(true);
    }
    expect((await a.api.get(`/v1/payments/${prepayment.id}`)).body.lockedAt).not.toBeNull();
    const first = issued.find((i) => i.contractId === contracts[0]!.id)!;
    const pdf = await invoicePdfText(app.url, a.accessToken, first.id);
    for (const text of [first.number, 'Mieter 1', 'Hausweg 1', '192,00', '505,00', '12,00', '709,00', '134,71', '843,71', '50,00', '793,71', 'Stadtwerke A']) expect(pdf).toContain(text);
    // Prices an issued invoice billed cannot change any more; a new version can be added.
    const used = await a.api.patch(`/v1/prices/${prices.local_energy![1]!.id}`, { amount: '0.260000' });
    expect(used.status).toBe(409);
    expect(used.body.code).toBe('price_in_use');
    await create(a.api, '/v1/prices', { priceComponentId: prices.local_energy![1]!.priceComponentId, validFrom: '2026-11-01', amount: '0.260000' });

    // A rerun of the period creates nothing: every contract is already billed.
    const rerun = await a.api.post('/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-11-01' });
    const rerunDone = await waitForRun(a.api, rerun.body.id, 'created');
    expect(rerunDone.counts).toEqual({ total: 3, contracts: 3, invoices: 0, issued: 0, errors: 3 });
    expect(rerunDone.errors.map((e: Record<string, string>) => e.code)).toEqual(['period_overlaps', 'period_overlaps', 'period_overlaps']);
    expect((await a.api.get('/v1/invoices')).body.total).toBe(3);

    await receiver.until(() => receiver.events().filter((e) => e.type === 'invoice.issued').length === 3 && receiver.events().some((e) => e.type === 'bill_run.complete_success'));
    const types = receiver.events().map((e) => e.type);
    // Batches of 2 contracts: the first reports, the next only after a second (or 500 contracts).
    const progress = receiver.events().filter((e) => e.type === 'bill_run.create_progress' && e.data.id === run.id);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]!.data.counts).toMatchObject({ total: 3, contracts: 2 });
    expect(types).toEqual(expect.arrayContaining(['bill_run.create_success', 'bill_run.complete_progress', 'bill_run.complete_success']));
    const issuedEvent = receiver.events().find((e) => e.type === 'invoice.issued' && e.data.id === first.id)!;
    expect(issuedEvent).toMatchObject({ userId: null, siteIds: [site.id], data: { number: first.number, amountDue: '793.71' } });

    // Locking the prepayment is a change of the payment, with its event.
    const lockedEvent = receiver.events().find((e) => e.type === 'payment.updated' && e.data.id === prepayment.id)!;
    expect(lockedEvent).toMatchObject({ userId: null, siteIds: [site.id], data: { lockedAt: expect.any(String) } });

    // Cancelling gives the prepayment back to the next invoice of the period.
    expect((await a.api.post(`/v1/invoices/${first.id}/cancel`)).status).toBe(201);
    expect((await a.api.get(`/v1/payments/${prepayment.id}`)).body.lockedAt).toBeNull();
    await receiver.until(() => receiver.events().some((e) => e.type === 'invoice.cancelled'));
    expect(receiver.events().find((e) => e.type === 'invoice.cancelled')).toMatchObject({ userId: a.userId, data: { id: first.id, state: 'cancelled' } });
    await receiver.close();
  }, 120_000);

  it('bills consumption on an unbalanced site, reports a contract with incomplete data, deletes a run, cancels and rebills', async () => {
    const b = await app.signUp('Stadtwerke B');
    const site = await fixtures.site(b.api, { type: 'unbalanced_accurate' });
    const meters = [];
    for (let i = 0; i < 2; i++) meters.push(await fixtures.meter(b.api, site.id, { measuring: 'load_profile_accurate', startDate: '2026-09-30T22:00:00.000Z' }));
    expect((await b.api.post('/v1/measurements', { measurements: series(meters[0]!.id, 0.25) })).status).toBe(201);
    // The second meter misses October 31.
    expect((await b.api.post('/v1/measurements', { measurements: series(meters[1]!.id, 0.25, { from: OCTOBER.from, to: OCTOBER.to - 25 * 4 * QH + 4 * QH }) })).status).toBe(201);
    const vat = await create(b.api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
    const product = await fixtures.product(b.api);
    const group = await create(b.api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Strom' });
    const energy = await create(b.api, '/v1/price-components', { priceComponentGroupId: group.id, name: 'Arbeitspreis', kind: 'energy', taxRateId: vat.id });
    await create(b.api, '/v1/prices', { priceComponentId: energy.id, validFrom: '2026-01-01', amount: '0.321000' });
    const contracts: Record<string, any>[] = [];
    for (const meter of meters) {
      const customer = await fixtures.customer(b.api);
      const contract = await fixtures.contract(b.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
      await create(b.api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: meter.id, startDate: '2026-01-01' });
      contracts.push(contract);
    }

    // The operator's CLI drafts the month (in its own process too, so it needs no running worker).
    const discarded = await app.cli('bill-run', 'create', '--period', '2026-10', '--account', b.accountId, '--site', site.id);
    expect(discarded).toMatchObject({ state: 'created', periodStart: '2026-10-01', periodEnd: '2026-11-01', siteIds: [site.id], counts: { total: 2, contracts: 2, invoices: 1, errors: 1 } });
    expect((await b.api.delete(`/v1/bill-runs/${discarded.id}`)).status).toBe(204);
    expect((await b.api.get(`/v1/bill-runs/${discarded.id}`)).status).toBe(404);
    expect((await b.api.get('/v1/invoices')).body.total).toBe(0);

    const run = await create(b.api, '/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-11-01', siteIds: [site.id] });
    const created = await waitForRun(b.api, run.id, 'created');
    expect(created.counts).toEqual({ total: 2, contracts: 2, invoices: 1, issued: 0, errors: 1 });
    expect(created.errors).toEqual([{ contractId: contracts[1]!.id, code: 'incomplete_measurements', message: expect.stringContaining('2026-10-31') }]);
    // 2,980 quarter hours x 0.25 kWh = 745 kWh x 0.321 = 239.145 -> 239.15 (half away from zero); 19 % = 45.4385 -> 45.44.
    const [draft] = (await b.api.get(`/v1/invoices?billRunId=${run.id}`)).body.data;
    expect(draft).toMatchObject({ contractId: contracts[0]!.id, netTotal: '239.15', taxes: [{ taxAmount: '45.44' }], grossTotal: '284.59', state: 'draft' });
    expect(await lines(b.api, draft.id)).toEqual([{ kind: 'energy', quantity: '745.000', unitPrice: '0.321000', netAmount: '239.15', periodStart: '2026-10-01', periodEnd: '2026-11-01' }]);
    expect((await b.api.post(`/v1/invoices/${draft.id}/cancel`)).body.code).toBe('invoice_not_cancellable');
    expect((await b.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    await waitForRun(b.api, run.id, 'completed');
    expect((await b.api.delete(`/v1/bill-runs/${run.id}`)).body.code).toBe('bill_run_has_issued_invoices');
    const invoice = (await b.api.get(`/v1/invoices/${draft.id}`)).body;
    expect(invoice.number).toBe(`INV-${numberingYearOf(invoice)}-000001`);

    const cancelled = await b.api.post(`/v1/invoices/${invoice.id}/cancel`);
    expect(cancelled.status).toBe(201);
    // Nothing was paid towards the invoice, so nothing is paid back: the credit note is settled at once, and nothing is open.
    expect(cancelled.body).toMatchObject({ kind: 'credit_note', number: `CN-${numberingYearOf(cancelled.body)}-000001`, state: 'paid', cancelsInvoiceId: invoice.id, netTotal: '-239.15', grossTotal: '-284.59', amountDue: '-284.59' });
    expect((await b.api.get('/v1/invoices?state=issued')).body.total).toBe(0);
    expect((await b.api.get('/v1/payments')).body.total).toBe(0);
    expect(await lines(b.api, cancelled.body.id)).toEqual([{ kind: 'energy', quantity: '-745.000', unitPrice: '0.321000', netAmount: '-239.15', periodStart: '2026-10-01', periodEnd: '2026-11-01' }]);
    expect((await b.api.get(`/v1/invoices/${invoice.id}`)).body.state).toBe('cancelled');
    expect((await b.api.post(`/v1/invoices/${invoice.id}/cancel`)).status).toBe(409);
    const creditPdf = await invoicePdfText(app.url, b.accessToken, cancelled.body.id);
    for (const text of [cancelled.body.number, invoice.number, '239,15', '284,59']) expect(creditPdf).toContain(text);

    // The period is billable again: the rerun bills the first contract once more, with the next number.
    const rebill = await create(b.api, '/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-11-01', siteIds: [site.id] });
    expect((await waitForRun(b.api, rebill.id, 'created')).counts).toEqual({ total: 2, contracts: 2, invoices: 1, issued: 0, errors: 1 });
    await b.api.post(`/v1/bill-runs/${rebill.id}/complete`);
    await waitForRun(b.api, rebill.id, 'completed');
    const issued = (await b.api.get(`/v1/invoices?state=issued&kind=invoice`)).body.data;
    expect(issued.map((i: Record<string, string>) => [i.number, i.grossTotal])).toEqual([[`INV-${numberingYearOf(issued[0])}-000002`, '284.59']]);

    // Payments naming the invoice settle it: paid once the received ones cover the amount due.
    const newest = (await b.api.get(`/v1/invoices?state=issued&kind=invoice`)).body.data[0];
    const payment = (amount: string, extra: Record<string, unknown> = {}) =>
      b.api.post('/v1/payments', { contractId: contracts[0]!.id, amount, type: 'payment', state: 'received', dueDate: '2026-11-20', invoiceId: newest.id, ...extra });
    expect((await payment('100.00', { invoiceId: invoice.id })).body.errors).toEqual([expect.objectContaining({ path: 'invoiceId', code: 'invoice_not_issued' })]);
    expect((await payment('100.00', { contractId: contracts[1]!.id })).body.errors).toEqual([expect.objectContaining({ path: 'invoiceId', code: 'invoice_of_other_contract' })]);
    expect((await payment('100.00')).status).toBe(201);
    expect((await b.api.get(`/v1/invoices/${newest.id}`)).body.state).toBe('issued');
    const rest = await payment('184.59', { state: 'pending' });
    expect((await b.api.get(`/v1/invoices/${newest.id}`)).body.state).toBe('issued');
    expect((await b.api.patch(`/v1/payments/${rest.body.id}`, { state: 'received' })).status).toBe(200);
    expect((await b.api.get(`/v1/invoices/${newest.id}`)).body.state).toBe('paid');
    expect((await b.api.get('/v1/events?type=invoice.paid')).body.data.map((e: Record<string, any>) => e.data.id)).toEqual([cancelled.body.id, newest.id]);

    const graphql = await b.api.graphql(`query($id: ID!) { contract(id: $id) { invoices(limit: 10) { number state lineItems(limit: 20) { quantity netAmount } } } }`, { id: contracts[0]!.id });
    expect(graphql.body.data.contract.invoices.map((i: Record<string, unknown>) => i.state)).toEqual(['cancelled', 'paid', 'paid']);
    expect(graphql.body.data.contract.invoices[1].lineItems).toEqual([{ quantity: '-745.000', netAmount: '-239.15' }]);

    const settled = await b.api.get('/v1/invoices?settled=true');
    expect([settled.status, settled.body.errors[0]]).toEqual([400, expect.objectContaining({ path: 'settled', code: 'field_removed', message: expect.stringContaining('state') })]);
    const ownership = await b.api.get(`/v1/line-items?meterOwnershipId=${meters[0]!.id}`);
    expect([ownership.status, ownership.body.errors[0].code]).toEqual([400, 'field_removed']);
  }, 120_000);
});
