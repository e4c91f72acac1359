import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { waitForRun } from '../support/billing.js';
import { queryRows } from '../support/database.js';
import { create, fixtures, sellerProfile } from '../support/fixtures.js';

const QH = 15 * 60 * 1000;
/** October 2026 in Europe/Berlin (the account timezone): 31 days, one of them 25 hours long. */
const OCTOBER = { from: new Date('2026-09-30T22:00:00.000Z'), to: new Date('2026-10-31T23:00:00.000Z') };

/** A measured contract billed a monthly base fee on an unbalanced site; `customer` extra fields as given. */
async function billableContract(account: SignedUp, customer: Record<string, unknown>): Promise<string> {
  const vat = await create(account.api, '/v1/tax-rates', { name: `VAT ${Math.random()}`, percentage: '19.00', validFrom: '2020-01-01' });
  const product = await fixtures.product(account.api);
  const group = await create(account.api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Strom' });
  const fee = await create(account.api, '/v1/price-components', { priceComponentGroupId: group.id, name: 'Grundpreis', kind: 'base_fee', taxRateId: vat.id });
  await create(account.api, '/v1/prices', { priceComponentId: fee.id, validFrom: '2026-01-01', amount: '12.000000' });
  const site = await fixtures.site(account.api, { type: 'unbalanced_accurate' });
  const meter = await fixtures.meter(account.api, site.id, { measuring: 'load_profile_accurate', startDate: OCTOBER.from.toISOString() });
  const measurements = Array.from({ length: (OCTOBER.to.getTime() - OCTOBER.from.getTime()) / QH }, (_, i) => ({ meterId: meter.id, timestamp: new Date(OCTOBER.from.getTime() + i * QH).toISOString(), value: 0 }));
  expect((await account.api.post("/v1/measurements", { measurements })).status).toBe(201);
  const owner = await fixtures.customer(account.api, customer);
  const contract = await fixtures.contract(account.api, { customerId: owner.id, electricityProductId: product.id, siteId: site.id });
  await create(account.api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: meter.id, startDate: '2026-01-01' });
  return contract.id;
}

async function billOctober(account: SignedUp): Promise<Record<string, any>> {
  const created = await create(account.api, '/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-11-01' });
  return waitForRun(account.api, created.id, 'created');
}

describe('bill runs never draft a half-legal invoice', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('gives every contract seller_profile_incomplete, naming what the profile lacks, until the profile is complete', async () => {
    const account = await app.signUp('Unprofiled', { legalProfile: false });
    const contract = await billableContract(account, {});
    const refused = await billOctober(account);
    expect(refused.counts).toMatchObject({ total: 1, invoices: 0, errors: 1 });
    expect(refused.errors).toEqual([{ contractId: contract, code: 'seller_profile_incomplete', message: expect.stringContaining('address, vatId|taxNumber, contact.email, contact.phone, bankAccount.iban') }]);
    expect(await queryRows(app.database.url, 'select count(*)::int as n from invoices where contract_id = $1', [contract])).toEqual([{ n: 0 }]);

    expect((await account.api.delete(`/v1/bill-runs/${refused.id}`)).status).toBe(204);
    expect((await account.api.patch(`/v1/accounts/${account.accountId}`, sellerProfile)).status).toBe(200);
    const billed = await billOctober(account);
    expect(billed.counts).toMatchObject({ total: 1, invoices: 1, errors: 0 });
  });

  it('gives a contract whose customer has no address customer_address_missing, and bills the others', async () => {
    const account = await app.signUp('Profiled');
    const homeless = await billableContract(account, { address: null });
    const housed = await billableContract(account, {});
    const run = await billOctober(account);
    expect(run.counts, JSON.stringify(run)).toMatchObject({ total: 2, invoices: 1, errors: 1 });
    expect(run.errors).toEqual([{ contractId: homeless, code: 'customer_address_missing', message: expect.stringContaining('has no address') }]);
    expect(await queryRows(app.database.url, 'select contract_id from invoices where bill_run_id = $1', [run.id])).toEqual([{ contract_id: housed }]);
  });
});
