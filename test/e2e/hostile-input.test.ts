import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { create, expectRejected, fixtures } from '../support/fixtures.js';

/** Input a database would refuse is a 400 with a field path, never a 500 (and never stored). */
describe('hostile input', () => {
  let app: TestApp;
  let a: SignedUp;
  let contractId: string;
  let componentId: string;

  beforeAll(async () => {
    app = await startTestApp({ WORKER: 'off' });
    a = await app.signUp();
    const site = await fixtures.site(a.api);
    const customer = await fixtures.customer(a.api);
    const product = await fixtures.product(a.api);
    contractId = (await fixtures.contract(a.api, { customerId: customer.id, electricityProductId: product.id, siteId: site.id })).id;
    const vat = await create(a.api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
    const group = await create(a.api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Strom' });
    componentId = (await create(a.api, '/v1/price-components', { priceComponentGroupId: group.id, name: 'Arbeitspreis', kind: 'energy', taxRateId: vat.id })).id;
    await create(a.api, '/v1/custom-attributes', { title: 'Note', name: 'note', entity: 'site', type: 'text' });
  });
  afterAll(() => app.close());

  const nul = 'Mül\u0000ler';
  const loneSurrogate = 'Haus \ud800 A';

  it('refuses U+0000 and unpaired surrogates in every string field, with the field path', async () => {
    const site = await fixtures.site(a.api);
    const cases: Array<[{ method?: 'POST' | 'PATCH'; path: string; body: unknown; collection?: string }, string]> = [
      [{ path: '/v1/customers', body: { lastName: nul } }, 'lastName'],
      [{ path: '/v1/customers', body: { lastName: 'Ok', address: { locality: loneSurrogate, postCode: '1', country: 'DE' } } }, 'address.locality'],
      [{ path: '/v1/sites', body: { name: loneSurrogate, type: 'balanced_accurate', address: { locality: 'B', postCode: '1', country: 'DE' } } }, 'name'],
      [{ path: '/v1/sites', body: { name: 'S', type: 'balanced_accurate', address: { locality: 'B', postCode: '1', country: 'DE' }, customAttributes: { note: nul } } }, 'customAttributes.note'],
      [{ method: 'PATCH', path: `/v1/sites/${site.id}`, body: { name: nul }, collection: '/v1/sites' }, 'name'],
      [{ method: 'PATCH', path: `/v1/sites/${site.id}`, body: { customAttributes: { note: '\udc00' } }, collection: '/v1/sites' }, 'customAttributes.note'],
      [{ path: '/v1/payments', body: { contractId, amount: '1.00', type: 'prepayment', dueDate: '2026-01-01', reference: nul } }, 'reference'],
      [{ path: '/v1/payments/batch', body: { payments: [{ contractId, amount: '1.00', type: 'prepayment', dueDate: '2026-01-01', reference: loneSurrogate }] }, collection: '/v1/payments' }, 'payments[0].reference'],
      [{ path: '/v1/customers', body: { lastName: 'Ok', [`x${nul}`]: 1 } }, ''],
    ];
    for (const [request, path] of cases) {
      const body = await expectRejected(a.api, request, { status: 400, code: 'invalid_characters', path });
      expect(body.code).toBe('validation_failed');
    }
    expect((await a.api.get(`/v1/sites/${site.id}`)).body.name).toBe(site.name);
  });

  it('refuses them in query parameters and GraphQL arguments', async () => {
    for (const query of ['name=%00', 'name=VAT%00&limit=5']) {
      const response = await a.api.get(`/v1/tax-rates?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.errors, query).toEqual([{ path: 'name', code: 'invalid_characters', message: expect.any(String) }]);
    }
    const created = await a.api.graphql('mutation($name: String) { createCustomer(input: { lastName: $name }) { id } }', { name: nul });
    expect(created.status).toBe(200);
    expect(created.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', errors: [{ path: 'lastName', code: 'invalid_characters' }] });
    expect((await a.api.get('/v1/customers')).body.data.map((c: { lastName: string }) => c.lastName)).not.toContain(nul);
  });

  it('refuses amounts beyond 64-bit minor units as out_of_range', async () => {
    const cases: Array<[{ path: string; body: unknown }, string]> = [
      [{ path: '/v1/payments', body: { contractId, amount: '92233720368547758.08', type: 'prepayment', dueDate: '2026-01-01' } }, 'amount'],
      [{ path: '/v1/prices', body: { priceComponentId: componentId, validFrom: '2026-01-01', amount: '123456789012345678901234567890' } }, 'amount'],
      [{ path: '/v1/prepayment-amounts', body: { contractId, amount: '1234567890123456789012345', validFrom: '2026-01-01' } }, 'amount'],
    ];
    for (const [request, path] of cases) await expectRejected(a.api, request, { status: 400, code: 'out_of_range', path });
    // The largest amount that fits is stored and read back exactly.
    const largest = await create(a.api, '/v1/payments', { contractId, amount: '92233720368547758.07', type: 'prepayment', dueDate: '2026-02-01' });
    expect((await a.api.get(`/v1/payments/${largest.id}`)).body.amount).toBe('92233720368547758.07');
  });

  it('takes integers written with digits only', async () => {
    for (const value of ['1e2', '0x10', '+5', '%205', '5%20', '1.0', '']) {
      const response = await a.api.get(`/v1/sites?limit=${value}`);
      expect([response.status, response.body.errors?.[0]?.path, response.body.errors?.[0]?.code], value).toEqual([400, 'limit', 'invalid_integer']);
    }
    for (const query of ['limit=0', 'limit=1001', 'offset=-1', 'offset=99999999999999999999']) {
      const response = await a.api.get(`/v1/sites?${query}`);
      expect(response.status, query).toBe(400);
    }
    expect((await a.api.get('/v1/sites?limit=2&offset=0')).status).toBe(200);
  });
});
