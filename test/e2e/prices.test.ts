import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { create, expectRejected, fixtures } from '../support/fixtures.js';

describe('price component groups, components and prices', () => {
  let app: TestApp;
  let a: SignedUp;

  beforeAll(async () => {
    // No worker: its sweeps would add their statements to the count.
    app = await startTestApp({ WORKER: 'off' }, { onQuery: (sql) => statements.push(sql) });
    a = await app.signUp('A');
  });
  afterAll(() => app.close());
  let statements: string[] = [];

  it('builds a product price sheet with versioned prices and reads it over GraphQL without N+1', async () => {
    const product = await fixtures.product(a.api);
    const vat = await create(a.api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
    const group = await create(a.api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Arbeitspreis' });
    expect(group.position).toBe(0);
    const local = await create(a.api, '/v1/price-components', { priceComponentGroupId: group.id, name: 'Local', kind: 'local_energy', taxRateId: vat.id });
    expect(local).toMatchObject({ unit: 'kWh', customAttributes: {} });
    const fee = await create(a.api, '/v1/price-components', { priceComponentGroupId: group.id, name: 'Base fee', kind: 'base_fee', unit: 'month', taxRateId: vat.id });
    await expectRejected(a.api, { path: '/v1/price-components', body: { priceComponentGroupId: group.id, name: 'X', kind: 'energy', unit: 'month', taxRateId: vat.id } }, { status: 400, code: 'unit_mismatch', path: 'unit' });
    const price = await create(a.api, '/v1/prices', { priceComponentId: local.id, validFrom: '2026-01-01', amount: '0.2895' });
    expect(price.amount).toBe('0.289500');
    await create(a.api, '/v1/prices', { priceComponentId: local.id, validFrom: '2026-07-01', amount: '0.300000' });
    await create(a.api, '/v1/prices', { priceComponentId: fee.id, validFrom: '2026-01-01', amount: '9.90' });
    await expectRejected(a.api, { path: '/v1/prices', collection: `/v1/prices?priceComponentId=${local.id}`, body: { priceComponentId: local.id, validFrom: '2026-01-01', amount: '1' } }, { status: 409, code: 'price_exists' });
    for (const amount of ['0.1234567', '-1', '1e3']) {
      await expectRejected(a.api, { path: '/v1/prices', body: { priceComponentId: local.id, validFrom: '2026-02-01', amount } }, { status: 400, code: 'invalid_amount', path: 'amount' });
    }
    await expectRejected(a.api, { path: '/v1/prices', body: { priceComponentId: local.id, validFrom: '2026-02-01', amount: 0.3 } }, { status: 400, code: 'invalid_type', path: 'amount' });

    await create(a.api, '/v1/custom-attributes', { title: 'Tariff code', name: 'tariffCode', entity: 'price_component', type: 'text' });
    expect((await a.api.get(`/v1/price-components/${fee.id}`)).body.customAttributes).toEqual({ tariffCode: null });
    const coded = await a.api.patch(`/v1/price-components/${fee.id}`, { customAttributes: { tariffCode: 'GF-1' } });
    expect(coded.body.data.customAttributes).toEqual({ tariffCode: 'GF-1' });

    const query = `{ electricityProducts(limit: 5) { data { name priceComponentGroups(limit: 5) { name priceComponents(limit: 10) { name kind prices(limit: 10) { validFrom amount } } } } } }`;
    statements = [];
    const sheet = await a.api.graphql(query);
    const few = statements.length;
    expect(sheet.body.data.electricityProducts.data[0].priceComponentGroups[0].priceComponents).toEqual([
      { name: 'Local', kind: 'local_energy', prices: [{ validFrom: '2026-01-01', amount: '0.289500' }, { validFrom: '2026-07-01', amount: '0.300000' }] },
      { name: 'Base fee', kind: 'base_fee', prices: [{ validFrom: '2026-01-01', amount: '9.900000' }] },
    ]);
    for (let i = 0; i < 3; i++) {
      const other = await fixtures.product(a.api);
      const g = await create(a.api, '/v1/price-component-groups', { electricityProductId: other.id, name: 'G' });
      const c = await create(a.api, '/v1/price-components', { priceComponentGroupId: g.id, name: 'C', kind: 'energy', taxRateId: vat.id });
      await create(a.api, '/v1/prices', { priceComponentId: c.id, validFrom: '2026-01-01', amount: '0.3' });
    }
    statements = [];
    await a.api.graphql(query);
    expect(statements.length).toBe(few);
  });
});
