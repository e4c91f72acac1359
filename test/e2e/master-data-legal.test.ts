import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { create, expectRejected, fixtures } from '../support/fixtures.js';

/** What an electricity invoice prints (§40 EnWG) beyond the billing itself: meter ids, contract terms, fuel mix, price categories. */

const MALO = '51238696781';
const OTHER_MALO = '41373559241';
const ZAEHLPUNKT = 'DE0001234567890123456789012345678';
const OTHER_ZAEHLPUNKT = 'DE00056266468000000000000000000AB';

const fuelMix = {
  year: 2025,
  sources: [
    { source: 'renewable_eeg', percentage: 52.3 },
    { source: 'renewable_other', percentage: 14.1 },
    { source: 'coal', percentage: 8.2 },
    { source: 'lignite', percentage: 10.4 },
    { source: 'natural_gas', percentage: 12.5 },
    { source: 'nuclear', percentage: 0 },
    { source: 'other_fossil', percentage: 2.5 },
  ],
  co2GramsPerKwh: 251.5,
  radioactiveWasteMgPerKwh: 0.02,
};

/** The field errors of a GraphQL answer as [path, code], like REST's `errors`. */
const graphqlErrors = (body: Record<string, any>) => {
  expect(body.errors?.[0]?.extensions?.code, JSON.stringify(body)).toBe('validation_failed');
  return body.errors[0].extensions.errors.map((e: { path: string; code: string }) => [e.path, e.code]);
};

describe('master data an electricity invoice prints', () => {
  let app: TestApp;
  let a: SignedUp;
  let site: Record<string, any>;
  let refs: { customerId: string; electricityProductId: string; siteId: string };

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('A');
    site = await fixtures.site(a.api);
    refs = { customerId: (await fixtures.customer(a.api)).id, electricityProductId: (await fixtures.product(a.api)).id, siteId: site.id };
  });
  afterAll(() => app.close());

  describe('meters: MaLo-ID and Zählpunktbezeichnung', () => {
    it('are null unless set, and are set, read and patched over REST', async () => {
      const plain = await fixtures.meter(a.api, site.id);
      expect(plain).toMatchObject({ marketLocationId: null, meteringPointId: null });

      const meter = await fixtures.meter(a.api, site.id, { marketLocationId: MALO, meteringPointId: ZAEHLPUNKT });
      expect(meter).toMatchObject({ marketLocationId: MALO, meteringPointId: ZAEHLPUNKT });
      expect((await a.api.get(`/v1/meters/${meter.id}`)).body).toMatchObject({ marketLocationId: MALO, meteringPointId: ZAEHLPUNKT });

      const patched = await a.api.patch(`/v1/meters/${meter.id}`, { marketLocationId: OTHER_MALO, meteringPointId: OTHER_ZAEHLPUNKT });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body.data).toMatchObject({ marketLocationId: OTHER_MALO, meteringPointId: OTHER_ZAEHLPUNKT });
      const cleared = await a.api.patch(`/v1/meters/${meter.id}`, { meteringPointId: null });
      expect(cleared.body.data).toMatchObject({ marketLocationId: OTHER_MALO, meteringPointId: null });
      expect((await a.api.get(`/v1/meters/${meter.id}`)).body).toMatchObject({ marketLocationId: OTHER_MALO, meteringPointId: null });
    });

    it('are not unique: a meter exchange keeps the market location', async () => {
      const old = await fixtures.meter(a.api, site.id, { marketLocationId: MALO, meteringPointId: ZAEHLPUNKT });
      const replacement = await fixtures.meter(a.api, site.id, { marketLocationId: MALO, meteringPointId: ZAEHLPUNKT });
      expect(replacement.id).not.toBe(old.id);
      expect(replacement).toMatchObject({ marketLocationId: MALO, meteringPointId: ZAEHLPUNKT });
    });

    it('refuses invalid ids with 400, the code and the field, on creation and on a patch', async () => {
      const meter = { siteId: site.id, direction: 'consumer', identifier: 'LEGAL-BAD', measuring: 'readings_accurate', startDate: '2026-01-01T00:00:00.000Z' };
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ marketLocationId: '51238696782' }, 'marketLocationId', 'invalid_check_digit'],
        [{ marketLocationId: '01238696781' }, 'marketLocationId', 'invalid_format'],
        [{ marketLocationId: '5123869678' }, 'marketLocationId', 'invalid_format'],
        [{ marketLocationId: '5123869678X' }, 'marketLocationId', 'invalid_format'],
        [{ meteringPointId: 'DE000123456789012345678901234567' }, 'meteringPointId', 'invalid_format'],
        [{ meteringPointId: 'de0001234567890123456789012345678' }, 'meteringPointId', 'invalid_format'],
        [{ meteringPointId: 'AT0001234567890123456789012345678' }, 'meteringPointId', 'invalid_format'],
      ];
      const existing = await fixtures.meter(a.api, site.id, { marketLocationId: MALO });
      for (const [change, path, code] of cases) {
        await expectRejected(a.api, { path: '/v1/meters', body: { ...meter, ...change } }, { status: 400, code, path });
        await expectRejected(a.api, { method: 'PATCH', path: `/v1/meters/${existing.id}`, collection: '/v1/meters', body: change }, { status: 400, code, path });
      }
      expect((await a.api.get(`/v1/meters/${existing.id}`)).body.marketLocationId).toBe(MALO);
    });

    it('are set, read, patched and refused over GraphQL with the same codes', async () => {
      const fields = 'id marketLocationId meteringPointId';
      const input = { siteId: site.id, direction: 'consumer', identifier: 'GQL-LEGAL', measuring: 'readings_accurate', startDate: '2026-01-01T00:00:00.000Z', marketLocationId: MALO, meteringPointId: ZAEHLPUNKT };
      const created = await a.api.graphql(`mutation($input: MeterInput!) { createMeter(input: $input) { ${fields} } }`, { input });
      const meter = created.body.data.createMeter;
      expect(meter).toMatchObject({ marketLocationId: MALO, meteringPointId: ZAEHLPUNKT });
      const read = await a.api.graphql(`query($id: ID!) { meter(id: $id) { ${fields} } }`, { id: meter.id });
      expect(read.body.data.meter).toEqual(meter);
      const updated = await a.api.graphql(`mutation($id: ID!, $input: MeterInput!) { updateMeter(id: $id, input: $input) { ${fields} } }`, {
        id: meter.id,
        input: { marketLocationId: OTHER_MALO, meteringPointId: null },
      });
      expect(updated.body.data.updateMeter).toEqual({ id: meter.id, marketLocationId: OTHER_MALO, meteringPointId: null });
      const refused = await a.api.graphql(`mutation($id: ID!, $input: MeterInput!) { updateMeter(id: $id, input: $input) { id } }`, {
        id: meter.id,
        input: { marketLocationId: '41373559240', meteringPointId: 'DE1' },
      });
      expect(graphqlErrors(refused.body)).toEqual([
        ['marketLocationId', 'invalid_check_digit'],
        ['meteringPointId', 'invalid_format'],
      ]);
      const refusedCreate = await a.api.graphql(`mutation($input: MeterInput!) { createMeter(input: $input) { id } }`, { input: { ...input, identifier: 'GQL-LEGAL-2', marketLocationId: '123' } });
      expect(graphqlErrors(refusedCreate.body)).toEqual([['marketLocationId', 'invalid_format']]);
    });
  });

  describe('contracts: minimum term, notice and renewal periods', () => {
    const contractBody = (extra: Record<string, unknown> = {}) => ({ ...refs, dunningBlock: false, startDate: '2026-01-01', number: `L-${Math.random()}`, ...extra });

    it('are null unless set, and are set, read and patched over REST', async () => {
      const plain = await create(a.api, '/v1/contracts', contractBody());
      expect(plain).toMatchObject({ minimumTermEndDate: null, noticePeriod: null, renewalPeriod: null });

      const contract = await create(a.api, '/v1/contracts', contractBody({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P3M', renewalPeriod: 'P1Y' }));
      expect(contract).toMatchObject({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P3M', renewalPeriod: 'P1Y', endDate: null });
      expect((await a.api.get(`/v1/contracts/${contract.id}`)).body).toMatchObject({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P3M', renewalPeriod: 'P1Y' });

      for (const noticePeriod of ['P1M', 'P14D', 'P6W', 'P1Y6M']) {
        const patched = await a.api.patch(`/v1/contracts/${contract.id}`, { noticePeriod });
        expect(patched.status, JSON.stringify(patched.body)).toBe(200);
        expect(patched.body.data.noticePeriod).toBe(noticePeriod);
      }
      const patched = await a.api.patch(`/v1/contracts/${contract.id}`, { minimumTermEndDate: '2028-01-01', renewalPeriod: null });
      expect(patched.body.data).toMatchObject({ minimumTermEndDate: '2028-01-01', noticePeriod: 'P1Y6M', renewalPeriod: null });
      expect((await a.api.get(`/v1/contracts/${contract.id}`)).body).toMatchObject({ minimumTermEndDate: '2028-01-01', noticePeriod: 'P1Y6M', renewalPeriod: null });
    });

    it('refuses invalid durations and a minimum term not after the start with 400, the code and the field', async () => {
      const existing = await create(a.api, '/v1/contracts', contractBody({ noticePeriod: 'P1M' }));
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ noticePeriod: 'PT1H' }, 'noticePeriod', 'invalid_duration'],
        [{ noticePeriod: 'P0M' }, 'noticePeriod', 'invalid_duration'],
        [{ noticePeriod: '1 month' }, 'noticePeriod', 'invalid_duration'],
        [{ noticePeriod: 'P1W2D' }, 'noticePeriod', 'invalid_duration'],
        [{ renewalPeriod: 'P1.5Y' }, 'renewalPeriod', 'invalid_duration'],
        [{ renewalPeriod: 'p1y' }, 'renewalPeriod', 'invalid_duration'],
        [{ noticePeriod: 3 }, 'noticePeriod', 'invalid_type'],
        [{ minimumTermEndDate: '2027-02-30' }, 'minimumTermEndDate', 'invalid_date'],
        [{ minimumTermEndDate: '2026-01-01' }, 'minimumTermEndDate', 'end_not_after_start'],
      ];
      for (const [change, path, code] of cases) {
        await expectRejected(a.api, { path: '/v1/contracts', body: contractBody(change) }, { status: 400, code, path });
        await expectRejected(a.api, { method: 'PATCH', path: `/v1/contracts/${existing.id}`, collection: '/v1/contracts', body: change }, { status: 400, code, path });
      }
      expect((await a.api.get(`/v1/contracts/${existing.id}`)).body.noticePeriod).toBe('P1M');
    });

    it('are set, read, patched and refused over GraphQL with the same codes', async () => {
      const fields = 'id minimumTermEndDate noticePeriod renewalPeriod';
      const created = await a.api.graphql(`mutation($input: ContractInput!) { createContract(input: $input) { ${fields} } }`, {
        input: contractBody({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P1M', renewalPeriod: 'P1Y' }),
      });
      const contract = created.body.data.createContract;
      expect(contract).toMatchObject({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P1M', renewalPeriod: 'P1Y' });
      expect((await a.api.graphql(`query($id: ID!) { contract(id: $id) { ${fields} } }`, { id: contract.id })).body.data.contract).toEqual(contract);
      const updated = await a.api.graphql(`mutation($id: ID!, $input: ContractInput!) { updateContract(id: $id, input: $input) { ${fields} } }`, {
        id: contract.id,
        input: { noticePeriod: 'P14D', renewalPeriod: null, minimumTermEndDate: '2026-07-01' },
      });
      expect(updated.body.data.updateContract).toEqual({ id: contract.id, minimumTermEndDate: '2026-07-01', noticePeriod: 'P14D', renewalPeriod: null });
      const refused = await a.api.graphql(`mutation($id: ID!, $input: ContractInput!) { updateContract(id: $id, input: $input) { id } }`, {
        id: contract.id,
        input: { noticePeriod: 'P1H', renewalPeriod: 'every year' },
      });
      expect(graphqlErrors(refused.body)).toEqual([
        ['noticePeriod', 'invalid_duration'],
        ['renewalPeriod', 'invalid_duration'],
      ]);
      const refusedEnd = await a.api.graphql(`mutation($id: ID!, $input: ContractInput!) { updateContract(id: $id, input: $input) { id } }`, {
        id: contract.id,
        input: { minimumTermEndDate: '2025-12-01' },
      });
      expect(graphqlErrors(refusedEnd.body)).toEqual([['minimumTermEndDate', 'end_not_after_start']]);
    });
  });

  describe('electricity products: fuel mix (§42 EnWG)', () => {
    it('is null unless set, and is set, read and patched over REST (a merge patch: sources replaced, the rest kept)', async () => {
      expect((await fixtures.product(a.api)).fuelMix).toBeNull();
      const product = await fixtures.product(a.api, { fuelMix });
      expect(product.fuelMix).toEqual(fuelMix);
      expect((await a.api.get(`/v1/electricity-products/${product.id}`)).body.fuelMix).toEqual(fuelMix);

      const sources = [
        { source: 'renewable_other', percentage: 33.3 },
        { source: 'renewable_eeg', percentage: 33.3 },
        { source: 'natural_gas', percentage: 33.4 },
      ];
      const patched = await a.api.patch(`/v1/electricity-products/${product.id}`, { fuelMix: { year: 2026, sources } });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body.data.fuelMix).toEqual({ ...fuelMix, year: 2026, sources });
      const removed = await a.api.patch(`/v1/electricity-products/${product.id}`, { fuelMix: null });
      expect(removed.body.data.fuelMix).toBeNull();
      expect((await a.api.get(`/v1/electricity-products/${product.id}`)).body.fuelMix).toBeNull();
    });

    it('refuses a mix not summing to 100 and other invalid figures with 400, the code and the path', async () => {
      const existing = await fixtures.product(a.api, { fuelMix });
      const sources = (percentages: number[]) => percentages.map((percentage, i) => ({ source: ['coal', 'lignite', 'nuclear'][i], percentage }));
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ sources: sources([50, 49.9]) }, 'fuelMix.sources', 'fuel_mix_not_100'],
        [{ sources: sources([50, 50, 0.1]) }, 'fuelMix.sources', 'fuel_mix_not_100'],
        [{ sources: [] }, 'fuelMix.sources', 'fuel_mix_not_100'],
        [{ sources: sources([50.05, 49.95]) }, 'fuelMix.sources[0].percentage', 'invalid_percentage'],
        [{ sources: sources([-10, 110]) }, 'fuelMix.sources[1].percentage', 'invalid_percentage'],
        [{ sources: [{ source: 'coal', percentage: 50 }, { source: 'coal', percentage: 50 }] }, 'fuelMix.sources[1].source', 'duplicate_source'],
        [{ sources: [{ source: 'hydrogen', percentage: 100 }] }, 'fuelMix.sources[0].source', 'invalid_value'],
        [{ co2GramsPerKwh: -1 }, 'fuelMix.co2GramsPerKwh', 'too_small'],
        [{ radioactiveWasteMgPerKwh: -0.5 }, 'fuelMix.radioactiveWasteMgPerKwh', 'too_small'],
        [{ year: 2025.5 }, 'fuelMix.year', 'invalid_type'],
        [{ year: '2025' }, 'fuelMix.year', 'invalid_type'],
      ];
      for (const [change, path, code] of cases) {
        await expectRejected(a.api, { path: '/v1/electricity-products', body: { name: 'Bad mix', fuelMix: { ...fuelMix, ...change } } }, { status: 400, code, path });
        await expectRejected(a.api, { method: 'PATCH', path: `/v1/electricity-products/${existing.id}`, collection: '/v1/electricity-products', body: { fuelMix: change } }, { status: 400, code, path });
      }
      const { co2GramsPerKwh: _co2, ...withoutCo2 } = fuelMix;
      await expectRejected(a.api, { path: '/v1/electricity-products', body: { name: 'Bad mix', fuelMix: withoutCo2 } }, { status: 400, code: 'required', path: 'fuelMix.co2GramsPerKwh' });
      expect((await a.api.get(`/v1/electricity-products/${existing.id}`)).body.fuelMix).toEqual(fuelMix);
    });

    it('is set, read, patched and refused over GraphQL with the same codes', async () => {
      const fields = 'id fuelMix { year sources { source percentage } co2GramsPerKwh radioactiveWasteMgPerKwh }';
      const created = await a.api.graphql(`mutation($input: ElectricityProductInput!) { createElectricityProduct(input: $input) { ${fields} } }`, { input: { name: 'GQL mix', fuelMix } });
      const product = created.body.data.createElectricityProduct;
      expect(product.fuelMix).toEqual(fuelMix);
      expect((await a.api.graphql(`query($id: ID!) { electricityProduct(id: $id) { ${fields} } }`, { id: product.id })).body.data.electricityProduct).toEqual(product);
      const updated = await a.api.graphql(`mutation($id: ID!, $input: ElectricityProductInput!) { updateElectricityProduct(id: $id, input: $input) { ${fields} } }`, {
        id: product.id,
        input: { fuelMix: { co2GramsPerKwh: 120, sources: [{ source: 'renewable_other', percentage: 100 }] } },
      });
      expect(updated.body.data.updateElectricityProduct.fuelMix).toEqual({ ...fuelMix, co2GramsPerKwh: 120, sources: [{ source: 'renewable_other', percentage: 100 }] });
      const refused = await a.api.graphql(`mutation($id: ID!, $input: ElectricityProductInput!) { updateElectricityProduct(id: $id, input: $input) { id } }`, {
        id: product.id,
        input: { fuelMix: { sources: [{ source: 'coal', percentage: 60 }, { source: 'lignite', percentage: 30 }] } },
      });
      expect(graphqlErrors(refused.body)).toEqual([['fuelMix.sources', 'fuel_mix_not_100']]);
      const cleared = await a.api.graphql(`mutation($id: ID!) { updateElectricityProduct(id: $id, input: { fuelMix: null }) { fuelMix { year } } }`, { id: product.id });
      expect(cleared.body.data.updateElectricityProduct.fuelMix).toBeNull();
    });
  });

  describe('price components: category', () => {
    let group: Record<string, any>;
    let taxRate: Record<string, any>;

    beforeAll(async () => {
      taxRate = await create(a.api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
      group = await create(a.api, '/v1/price-component-groups', { electricityProductId: refs.electricityProductId, name: 'Preisbestandteile' });
    });

    const componentBody = (extra: Record<string, unknown> = {}) => ({ priceComponentGroupId: group.id, name: 'Netzentgelt', kind: 'energy', taxRateId: taxRate.id, ...extra });

    it('defaults to energy, and is set, read and patched over REST', async () => {
      expect((await create(a.api, '/v1/price-components', componentBody())).category).toBe('energy');
      for (const category of ['energy', 'grid_fee', 'metering', 'concession_fee', 'levies', 'electricity_tax', 'other']) {
        const component = await create(a.api, '/v1/price-components', componentBody({ category }));
        expect(component.category).toBe(category);
        expect((await a.api.get(`/v1/price-components/${component.id}`)).body.category).toBe(category);
      }
      const component = await create(a.api, '/v1/price-components', componentBody({ category: 'grid_fee' }));
      const patched = await a.api.patch(`/v1/price-components/${component.id}`, { category: 'concession_fee' });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body.data).toMatchObject({ category: 'concession_fee', kind: 'energy', unit: 'kWh' });
      expect((await a.api.get(`/v1/price-components/${component.id}`)).body.category).toBe('concession_fee');
    });

    it('refuses other categories with 400 and the field; null resets it to energy', async () => {
      const existing = await create(a.api, '/v1/price-components', componentBody({ category: 'metering' }));
      const code = 'invalid_value';
      for (const category of ['tax', 'Energy', 3]) {
        await expectRejected(a.api, { path: '/v1/price-components', body: componentBody({ category }) }, { status: 400, code, path: 'category' });
        await expectRejected(a.api, { method: 'PATCH', path: `/v1/price-components/${existing.id}`, collection: '/v1/price-components', body: { category } }, { status: 400, code, path: 'category' });
      }
      expect((await a.api.get(`/v1/price-components/${existing.id}`)).body.category).toBe('metering');
      // null removes the member in a merge patch: the default again.
      const reset = await a.api.patch(`/v1/price-components/${existing.id}`, { category: null });
      expect(reset.body.data.category).toBe('energy');
    });

    it('is set, read, patched and refused over GraphQL with the same codes', async () => {
      const created = await a.api.graphql('mutation($input: PriceComponentInput!) { createPriceComponent(input: $input) { id category } }', { input: componentBody({ category: 'levies' }) });
      const component = created.body.data.createPriceComponent;
      expect(component.category).toBe('levies');
      const defaulted = await a.api.graphql('mutation($input: PriceComponentInput!) { createPriceComponent(input: $input) { category } }', { input: componentBody() });
      expect(defaulted.body.data.createPriceComponent.category).toBe('energy');
      expect((await a.api.graphql('query($id: ID!) { priceComponent(id: $id) { id category } }', { id: component.id })).body.data.priceComponent).toEqual(component);
      const updated = await a.api.graphql('mutation($id: ID!) { updatePriceComponent(id: $id, input: { category: electricity_tax }) { category } }', { id: component.id });
      expect(updated.body.data.updatePriceComponent.category).toBe('electricity_tax');
      // category is an enum: GraphQL refuses an unknown one before core sees it.
      const refused = await a.api.graphql('mutation($id: ID!) { updatePriceComponent(id: $id, input: { category: vat }) { id } }', { id: component.id });
      expect(refused.body.errors[0]).toMatchObject({ message: 'Value "vat" does not exist in "PriceComponentCategory" enum.', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    });
  });

  it('documents every new field in the OpenAPI document, generated from the same schemas', async () => {
    const document = (await a.api.get('/v1/openapi.json')).body;
    const named = (media: { schema: { $ref: string } }) => document.components.schemas[media.schema.$ref.replace('#/components/schemas/', '')];
    const body = (path: string, method: 'post' | 'patch') =>
      named(document.paths[method === 'post' ? path : `${path}/{id}`][method].requestBody.content['application/json']).properties;
    const view = (path: string) => named(document.paths[path].get.responses['200'].content['application/json']).properties;
    for (const method of ['post', 'patch'] as const) {
      expect(body('/v1/meters', method)).toHaveProperty('marketLocationId');
      expect(body('/v1/meters', method)).toHaveProperty('meteringPointId');
      expect(body('/v1/contracts', method)).toHaveProperty('minimumTermEndDate');
      expect(body('/v1/contracts', method)).toHaveProperty('noticePeriod');
      expect(body('/v1/contracts', method)).toHaveProperty('renewalPeriod');
      expect(body('/v1/electricity-products', method)).toHaveProperty('fuelMix');
      expect(body('/v1/price-components', method)).toHaveProperty('category');
    }
    expect(JSON.stringify(body('/v1/meters', 'post').marketLocationId)).toContain('^[1-9][0-9]{10}$');
    expect(JSON.stringify(body('/v1/price-components', 'post').category)).toContain('"default":"energy"');
    expect(Object.keys(view('/v1/meters/{id}'))).toEqual(expect.arrayContaining(['marketLocationId', 'meteringPointId']));
    expect(Object.keys(view('/v1/contracts/{id}'))).toEqual(expect.arrayContaining(['minimumTermEndDate', 'noticePeriod', 'renewalPeriod']));
    expect(Object.keys(view('/v1/electricity-products/{id}'))).toContain('fuelMix');
    expect(Object.keys(view('/v1/price-components/{id}'))).toContain('category');
  });
});
