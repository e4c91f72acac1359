import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  async function countStatements(): Promise<number> {
    statements = [];
    const response = await acme.api.graphql(QUERY);
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
});
