import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { baseFeeContract, billOctober, waitForRun } from '../support/billing.js';
import { queryRows } from '../support/database.js';
import { sellerProfile } from '../support/fixtures.js';

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
    const { contractId: contract } = await baseFeeContract(account);
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
    const { contractId: homeless } = await baseFeeContract(account, { address: null });
    const { contractId: housed } = await baseFeeContract(account);
    const run = await billOctober(account);
    expect(run.counts, JSON.stringify(run)).toMatchObject({ total: 2, invoices: 1, errors: 1 });
    expect(run.errors).toEqual([{ contractId: homeless, code: 'customer_address_missing', message: expect.stringContaining('has no address') }]);
    expect(await queryRows(app.database.url, 'select contract_id from invoices where bill_run_id = $1', [run.id])).toEqual([{ contract_id: housed }]);
  });

  it('checks again when issuing: a seller profile made incomplete fails the completion until it is whole, an address removed since drafting costs the draft', async () => {
    const account = await app.signUp('Forgetful');
    const { contractId: moved, customerId: movedOut } = await baseFeeContract(account);
    const { contractId: stays } = await baseFeeContract(account);
    const run = await billOctober(account);
    expect(run.counts).toMatchObject({ invoices: 2, errors: 0 });
    expect((await account.api.patch(`/v1/customers/${movedOut}`, { address: null })).status).toBe(200);
    expect((await account.api.patch(`/v1/accounts/${account.accountId}`, { bankAccount: null })).status).toBe(200);

    expect((await account.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    const failed = await waitForRun(account.api, run.id, 'failed');
    expect(failed).toMatchObject({ phase: 'complete', failure: expect.stringContaining('bankAccount.iban'), counts: { invoices: 2, issued: 0, errors: 0 } });

    expect((await account.api.patch(`/v1/accounts/${account.accountId}`, { bankAccount: sellerProfile.bankAccount })).status).toBe(200);
    expect((await account.api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    const completed = await waitForRun(account.api, run.id, 'completed');
    expect(completed.counts).toMatchObject({ contracts: 2, invoices: 1, issued: 1, errors: 1 });
    expect(completed.errors).toEqual([{ contractId: moved, code: 'customer_address_missing', message: expect.stringContaining('has no address') }]);
    expect(await queryRows(app.database.url, 'select contract_id, state from invoices where bill_run_id = $1', [run.id])).toEqual([{ contract_id: stays, state: 'issued' }]);
  });
});
