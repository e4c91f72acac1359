import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { balancedSite, waitForBalance } from '../support/balancing.js';
import { create, fixtures } from '../support/fixtures.js';

const QH = 15 * 60 * 1000;
/** March 2026 in Berlin: 31 days, one of them 23 hours long (DST), so 2,972 quarter hours. */
const MARCH = { from: Date.parse('2026-02-28T23:00:00.000Z'), to: Date.parse('2026-03-31T22:00:00.000Z') };
const series = (meterId: string, kwh: number) =>
  Array.from({ length: (MARCH.to - MARCH.from) / QH }, (_, i) => ({ meterId, timestamp: new Date(MARCH.from + i * QH).toISOString(), value: kwh }));

const DRAFT = `query($id: ID!, $from: Date!, $to: Date!) { contract(id: $id) { draftInvoice(periodStart: $from, periodEnd: $to) {
  lines { kind quantity unitPrice netAmount periodStart periodEnd meterId } netTotal taxes { percentage netAmount taxAmount } grossTotal prepaymentsTotal amountDue } } }`;

describe('invoice drafts from stored data (the engine a bill run uses)', () => {
  let app: TestApp;
  let a: SignedUp;

  beforeAll(async () => {
    app = await startTestApp({ QUEUE_POLL_SECONDS: '0.5', RATE_LIMIT_PER_MINUTE: '100000' });
    a = await app.signUp('A');
  });
  afterAll(() => app.close());

  it('invoices only balanced values on a balanced site, at the price of each day, and refuses an unbalanced period', async () => {
    const { site, producer, consumers } = await balancedSite(a.api, [1]);
    const consumer = consumers[0]!;
    expect((await a.api.post('/v1/measurements', { measurements: series(producer.id, 1) })).status).toBe(201);
    expect((await a.api.post('/v1/measurements', { measurements: series(consumer.id, 2) })).status).toBe(201);
    await waitForBalance(a.api, site.id, '2026-03-31T21:45:00.000Z', 60_000);

    const vat = await create(a.api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
    const product = await fixtures.product(a.api);
    const group = await create(a.api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Energy' });
    const component = async (kind: string, prices: Array<[string, string]>) => {
      const created = await create(a.api, '/v1/price-components', { priceComponentGroupId: group.id, name: kind, kind, taxRateId: vat.id });
      for (const [validFrom, amount] of prices) await create(a.api, '/v1/prices', { priceComponentId: created.id, validFrom, amount });
    };
    await component('local_energy', [['2026-01-01', '0.250000'], ['2026-03-16', '0.300000']]);
    await component('grid_energy', [['2026-01-01', '0.350000']]);
    await component('base_fee', [['2026-01-01', '10.000000']]);
    const customer = await fixtures.customer(a.api);
    const contract = await fixtures.contract(a.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
    await create(a.api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: consumer.id, startDate: '2026-03-01' });
    await create(a.api, '/v1/payments', { contractId: contract.id, amount: '100.00', type: 'prepayment', state: 'received', dueDate: '2026-03-15' });

    const response = await a.api.graphql(DRAFT, { id: contract.id, from: '2026-03-01', to: '2026-04-01' });
    expect(response.body.errors).toBeUndefined();
    const draft = response.body.data.contract.draftInvoice;
    // Producer 1 kWh and consumer 2 kWh every quarter hour: 1 kWh local and 1 kWh from the grid each.
    expect(draft.lines).toEqual([
      // March 1-15: 15 days x 96 = 1,440 kWh at 0.25 = 360.00
      { kind: 'local_energy', quantity: '1440.000', unitPrice: '0.250000', netAmount: '360.00', periodStart: '2026-03-01', periodEnd: '2026-03-16', meterId: consumer.id },
      // March 16-31: 2,972 - 1,440 = 1,532 kWh (DST day included) at 0.30 = 459.60
      { kind: 'local_energy', quantity: '1532.000', unitPrice: '0.300000', netAmount: '459.60', periodStart: '2026-03-16', periodEnd: '2026-04-01', meterId: consumer.id },
      // 2,972 kWh at 0.35 = 1,040.20
      { kind: 'grid_energy', quantity: '2972.000', unitPrice: '0.350000', netAmount: '1040.20', periodStart: '2026-03-01', periodEnd: '2026-04-01', meterId: consumer.id },
      { kind: 'base_fee', quantity: '1.000000', unitPrice: '10.000000', netAmount: '10.00', periodStart: '2026-03-01', periodEnd: '2026-04-01', meterId: null },
    ]);
    // 1,869.80 net, 19 % = 355.262 -> 355.26, gross 2,225.06, 100.00 prepaid.
    expect(draft).toMatchObject({
      netTotal: '1869.80',
      taxes: [{ percentage: '19.00', netAmount: '1869.80', taxAmount: '355.26' }],
      grossTotal: '2225.06',
      prepaymentsTotal: '100.00',
      amountDue: '2125.06',
    });

    const april = await a.api.graphql(DRAFT, { id: contract.id, from: '2026-04-01', to: '2026-05-01' });
    expect(april.body.errors[0].extensions.code).toBe('incomplete_balancing');
  }, 90_000);

  it('invoices the consumption on an unbalanced site, and refuses a period with missing data', async () => {
    const site = await fixtures.site(a.api, { type: 'unbalanced_accurate' });
    const meter = await fixtures.meter(a.api, site.id, { measuring: 'load_profile_accurate', startDate: '2025-12-31T23:00:00.000Z' });
    expect((await a.api.post('/v1/measurements', { measurements: series(meter.id, 0.5) })).status).toBe(201);
    const vat = await create(a.api, '/v1/tax-rates', { name: 'VAT reduced', percentage: '7.00', validFrom: '2020-01-01' });
    const product = await fixtures.product(a.api);
    const group = await create(a.api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Energy' });
    const energy = await create(a.api, '/v1/price-components', { priceComponentGroupId: group.id, name: 'Energy', kind: 'energy', taxRateId: vat.id });
    await create(a.api, '/v1/prices', { priceComponentId: energy.id, validFrom: '2026-01-01', amount: '0.333333' });
    const customer = await fixtures.customer(a.api);
    // The contract starts on the 10th, so only March 10-31 is billed.
    const contract = await fixtures.contract(a.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id }, { startDate: '2026-03-10' });
    await create(a.api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: meter.id, startDate: '2026-03-10' });

    const response = await a.api.graphql(DRAFT, { id: contract.id, from: '2026-03-01', to: '2026-04-01' });
    expect(response.body.errors).toBeUndefined();
    // March 10-31: 22 x 96 - 4 = 2,108 quarter hours x 0.5 kWh = 1,054 kWh x 0.333333 = 351.332982 -> 351.33
    expect(response.body.data.contract.draftInvoice).toMatchObject({
      lines: [{ kind: 'energy', quantity: '1054.000', unitPrice: '0.333333', netAmount: '351.33', periodStart: '2026-03-10', periodEnd: '2026-04-01', meterId: meter.id }],
      // 7 % of 351.33 = 24.5931 -> 24.59
      taxes: [{ percentage: '7.00', netAmount: '351.33', taxAmount: '24.59' }],
      grossTotal: '375.92',
      amountDue: '375.92',
    });
    const april = await a.api.graphql(DRAFT, { id: contract.id, from: '2026-04-01', to: '2026-05-01' });
    expect(april.body.errors[0].extensions.code).toBe('incomplete_measurements');
  });
});
