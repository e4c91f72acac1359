import { expect } from 'vitest';
import type { Api } from './http.js';

/** Creating one of each resource over REST, asserting the 201 on the way. */
export async function create(api: Api, path: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await api.post(path, body);
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(201);
  return response.body;
}

export const address = { locality: 'Berlin', postCode: '10115', country: 'DE' };

/** A customer's postal address: an invoice must name the recipient's. */
export const customerAddress = { line1: 'Hauptstraße 1', locality: 'Berlin', postCode: '10115', country: 'DE' };

/** A complete seller legal profile: what issuing an invoice requires of the account. */
export const sellerProfile = {
  address: { line1: 'Energieweg 5', locality: 'Berlin', postCode: '10117', country: 'DE' },
  vatId: 'DE136695976',
  registerCourt: 'Amtsgericht Charlottenburg',
  registerNumber: 'HRB 12345',
  managingDirectors: ['Erika Mustermann'],
  contact: { email: 'service@ebbs.test', phone: '+49 30 123456', website: 'www.ebbs.test' },
  bankAccount: { accountHolder: 'Mieterstrom GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
  sepaCreditorId: 'DE98ZZZ09999999999',
};

let sequence = 0;
const next = () => ++sequence;

export const fixtures = {
  site: (api: Api, extra: Record<string, unknown> = {}) => create(api, '/v1/sites', { name: `Site ${next()}`, type: 'balanced_accurate', address, ...extra }),
  product: (api: Api, extra: Record<string, unknown> = {}) => create(api, '/v1/electricity-products', { name: `Mieterstrom ${next()}`, ...extra }),
  customer: (api: Api, extra: Record<string, unknown> = {}) => create(api, '/v1/customers', { lastName: `Tenant ${next()}`, address: customerAddress, ...extra }),
  mpo: (api: Api, extra: Record<string, unknown> = {}) => create(api, '/v1/mpos', { channel: 'smgw', provider: 'discovergy', name: `MPO ${next()}`, ...extra }),
  meter: (api: Api, siteId: string, extra: Record<string, unknown> = {}) =>
    create(api, '/v1/meters', {
      siteId,
      direction: 'consumer',
      identifier: `1EMH00${next()}`,
      measuring: 'readings_accurate',
      startDate: '2026-01-01T00:00:00.000Z',
      ...extra,
    }),
  contract: (api: Api, refs: { customerId: string; electricityProductId: string; siteId: string }, extra: Record<string, unknown> = {}) =>
    create(api, '/v1/contracts', { ...refs, dunningBlock: false, startDate: '2026-01-01', number: `C-${next()}`, ...extra }),
};

/**
 * Sends a bad write and checks the problem and that nothing changed: `collection`'s total stays
 * the same (pass the collection the write would have added to).
 */
export async function expectRejected(
  api: Api,
  request: { method?: 'POST' | 'PATCH'; path: string; body: unknown; collection?: string },
  expected: { status: number; code: string; path?: string },
): Promise<Record<string, any>> {
  const collection = request.collection ?? request.path;
  const before = (await api.get(collection)).body.total;
  const response = await api.request(request.method ?? 'POST', request.path, request.body);
  expect(response.status, JSON.stringify(response.body)).toBe(expected.status);
  if (expected.path !== undefined) {
    expect(response.body.errors?.map((e: { path: string; code: string }) => [e.path, e.code]), JSON.stringify(response.body)).toContainEqual([
      expected.path,
      expected.code,
    ]);
  } else {
    expect(response.body.code, JSON.stringify(response.body)).toBe(expected.code);
  }
  expect((await api.get(collection)).body.total).toBe(before);
  return response.body;
}
