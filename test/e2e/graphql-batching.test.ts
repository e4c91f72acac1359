import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDateOf } from '../../core/domain/time/calendar-date.js';
import { earliestCollectionDate } from '../../core/domain/time/target2.js';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { create, fixtures } from '../support/fixtures.js';

const QUERY =
  '{ sites(limit: 50) { total data { name meters(limit: 5) { identifier contract { number payments(limit: 5) { amount } invoices(limit: 5) { number } customer { companyName paymentMethods(limit: 5) { type } invoices(limit: 5) { number } } } } } } }';

describe('GraphQL relations through DataLoaders', () => {
  let app: TestApp;
  let acme: SignedUp;
  let statements: string[] = [];

  /** A site with `meters` meters, each on its own contract of its own customer. */
  async function addSite(meters: number) {
    const site = await fixtures.site(acme.api);
    const product = await fixtures.product(acme.api);
    for (let i = 0; i < meters; i++) {
      const meter = await fixtures.meter(acme.api, site.id);
      const customer = await fixtures.customer(acme.api, { companyName: `Firma ${site.name} ${i}` });
      const contract = await fixtures.contract(acme.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
      await create(acme.api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: meter.id, startDate: '2026-01-01' });
      await create(acme.api, '/v1/payment-methods', { customerId: customer.id, type: 'bank_transfer' });
      await create(acme.api, '/v1/payments', { contractId: contract.id, amount: `${i + 1}.00`, type: 'payment', dueDate: '2026-01-01' });
    }
  }

  async function countStatements(query = QUERY): Promise<number> {
    statements = [];
    const response = await acme.api.graphql(query);
    expect(response.body.errors).toBeUndefined();
    return statements.length;
  }

  beforeAll(async () => {
    // No worker: its sweeps would add their statements to the count.
    app = await startTestApp({ WORKER: 'off' }, { onQuery: (sql) => statements.push(sql) });
    acme = await app.signUp('Acme');
  });
  afterAll(() => app.close());

  it('runs a bounded number of statements, the same for 1 site or many with more meters', async () => {
    await addSite(1);
    const small = await countStatements();
    for (let i = 0; i < 4; i++) await addSite(3);
    const large = await countStatements();
    const response = await acme.api.graphql(QUERY);
    expect(response.body.data.sites.total).toBe(5);
    expect(response.body.data.sites.data.flatMap((s: any) => s.meters)).toHaveLength(13);
    expect(response.body.data.sites.data[1].meters[0].contract.customer.companyName).toMatch(/^Firma/);
    expect(response.body.data.sites.data[1].meters[2].contract).toMatchObject({ payments: [{ amount: '3.00' }], customer: { paymentMethods: [{ type: 'bank_transfer' }] } });
    expect(large).toBe(small);
    expect(small).toBeGreaterThanOrEqual(6);
    expect(large).toBeLessThanOrEqual(16);
  });

  it('reads a page of items for each of a page of payment runs with one statement, whatever the number of runs', async () => {
    const site = await fixtures.site(acme.api);
    const product = await fixtures.product(acme.api);
    const customer = await fixtures.customer(acme.api);
    const contract = await fixtures.contract(acme.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id });
    await create(acme.api, '/v1/payment-methods', { customerId: customer.id, type: 'sepa_direct_debit', accountHolder: 'Anna Meyer', iban: 'DE89370400440532013000', mandateReference: 'M-1', mandateSignedAt: '2026-01-01' });
    const collectionDate = earliestCollectionDate(calendarDateOf(new Date(), 'Europe/Berlin'));
    /** A run of the account's pending prepayments, after adding these. */
    let day = 10;
    const run = async (...amounts: string[]) => {
      for (const amount of amounts) await create(acme.api, '/v1/payments', { contractId: contract.id, amount, type: 'prepayment', dueDate: `2026-03-${day++}` });
      return create(acme.api, '/v1/payment-runs', { type: 'direct_debit', collectionDate, dueUntil: '2026-12-31' });
    };
    const query = '{ paymentRuns(limit: 10) { data { id all: items(limit: 5) { amount paymentId } first: items(limit: 1) { amount } second: items(limit: 1, offset: 1) { amount } } } }';
    const runs = [await run('1.00', '2.00')];
    const one = await countStatements(query);
    runs.push(await run('3.00'), await run('4.00'));
    const three = await countStatements(query);
    expect(three).toBe(one);

    const { data } = (await acme.api.graphql(query)).body;
    expect(data.paymentRuns.data.map((r: any) => r.id)).toEqual(runs.map((r) => r.id));
    for (const [i, graph] of data.paymentRuns.data.entries()) {
      const rest = (await acme.api.get(`/v1/payment-runs/${runs[i]!.id}/items`)).body.data as Record<string, any>[];
      expect(graph.all).toEqual(rest.map((item) => ({ amount: item.amount, paymentId: item.paymentId })));
      expect(graph.first).toEqual(graph.all.slice(0, 1).map(({ amount }: any) => ({ amount })));
      expect(graph.second).toEqual(graph.all.slice(1, 2).map(({ amount }: any) => ({ amount })));
    }
    expect(data.paymentRuns.data.map((r: any) => r.all.map((item: any) => item.amount).sort())).toEqual([['1.00', '2.00'], ['3.00'], ['4.00']]);

    const invalid = await acme.api.graphql('{ paymentRuns(limit: 10) { data { items(limit: 0) { amount } } } }');
    expect(invalid.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', errors: [{ path: 'limit', code: 'out_of_range' }] });
  });
});
