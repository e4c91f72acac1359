import { expect } from 'vitest';
import { calendarDateOf } from '../../core/domain/time/calendar-date.js';
import type { SignedUp } from './app.js';
import { create, fixtures } from './fixtures.js';
import type { Api } from './http.js';

/** Polls a bill run until it reaches `state`. */
export async function waitForRun(api: Api, id: string, state: string, timeoutMs = 30_000): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = (await api.get(`/v1/bill-runs/${id}`)).body;
    if (run.state === state) return run;
    if (Date.now() > deadline) throw new Error(`bill run ${id} did not reach ${state}: ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The year an issued invoice is numbered in: that of its issue date in the account's time zone
 * (Europe/Berlin in tests), which differs from the runner's year in the hours around New Year.
 */
export const numberingYearOf = (invoice: Record<string, any>): number => Number(calendarDateOf(new Date(invoice.issuedAt), 'Europe/Berlin').slice(0, 4));

const QH = 15 * 60 * 1000;
/** October 2026 in Europe/Berlin (the account timezone): 31 days, one of them 25 hours long. */
export const OCTOBER = { from: new Date('2026-09-30T22:00:00.000Z'), to: new Date('2026-10-31T23:00:00.000Z') };

/**
 * A measured contract of the customer billed a monthly base fee of 12.00 net (19 % VAT: 14.28
 * gross) on an unbalanced site, with the meter's October measured; answers the contract.
 */
export async function baseFeeContractOf(account: SignedUp, customerId: string): Promise<Record<string, any>> {
  const vat = await create(account.api, '/v1/tax-rates', { name: `VAT ${Math.random()}`, percentage: '19.00', validFrom: '2020-01-01' });
  const product = await fixtures.product(account.api);
  const group = await create(account.api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Strom' });
  const fee = await create(account.api, '/v1/price-components', { priceComponentGroupId: group.id, name: 'Grundpreis', kind: 'base_fee', taxRateId: vat.id });
  await create(account.api, '/v1/prices', { priceComponentId: fee.id, validFrom: '2026-01-01', amount: '12.000000' });
  const site = await fixtures.site(account.api, { type: 'unbalanced_accurate' });
  const meter = await fixtures.meter(account.api, site.id, { measuring: 'load_profile_accurate', startDate: OCTOBER.from.toISOString() });
  const measurements = Array.from({ length: (OCTOBER.to.getTime() - OCTOBER.from.getTime()) / QH }, (_, i) => ({ meterId: meter.id, timestamp: new Date(OCTOBER.from.getTime() + i * QH).toISOString(), value: 0 }));
  expect((await account.api.post('/v1/measurements', { measurements })).status).toBe(201);
  const contract = await fixtures.contract(account.api, { customerId, electricityProductId: product.id, siteId: site.id });
  await create(account.api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: meter.id, startDate: '2026-01-01' });
  return contract;
}

/** baseFeeContractOf a new customer with the extra fields as given. */
export async function baseFeeContract(account: SignedUp, customer: Record<string, unknown> = {}): Promise<{ contractId: string; customerId: string }> {
  const owner = await fixtures.customer(account.api, customer);
  return { contractId: (await baseFeeContractOf(account, owner.id)).id, customerId: owner.id };
}

/** A bill run over October, waited for until its drafts are created. */
export async function billOctober(account: SignedUp): Promise<Record<string, any>> {
  const created = await create(account.api, '/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-11-01' });
  return waitForRun(account.api, created.id, 'created');
}
