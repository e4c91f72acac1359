import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { create, expectRejected, fixtures } from '../support/fixtures.js';

const start = '2026-01-01T00:00:00.000Z';

describe('meters and virtual meters', () => {
  let app: TestApp;
  let a: SignedUp;
  let b: SignedUp;
  let site: Record<string, any>;
  let otherSite: Record<string, any>;
  let virtualMpo: Record<string, any>;
  let producer: Record<string, any>;

  const virtual = (extra: Record<string, unknown>) => ({
    siteId: site.id,
    mpoId: virtualMpo.id,
    direction: 'consumer',
    identifier: `V-${Math.random()}`,
    measuring: 'load_profile_accurate',
    startDate: start,
    formula: [{ type: 'meter', meterId: producer.id }],
    ...extra,
  });

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('A');
    b = await app.signUp('B');
    site = await fixtures.site(a.api);
    otherSite = await fixtures.site(a.api);
    virtualMpo = await create(a.api, '/v1/mpos', { channel: 'pseudo', provider: 'virtual', name: 'Virtual' });
    producer = await fixtures.meter(a.api, site.id, { direction: 'producer', identifier: 'PV' });
  });
  afterAll(() => app.close());

  it('allows one virtual MPO per account and names the existing one', async () => {
    const body = await expectRejected(a.api, { path: '/v1/mpos', body: { channel: 'pseudo', provider: 'virtual', name: 'Again' } }, { status: 409, code: 'virtual_mpo_exists' });
    expect(body.detail).toContain(virtualMpo.id);
    expect((await b.api.post('/v1/mpos', { channel: 'pseudo', provider: 'virtual', name: 'B' })).status).toBe(201);
  });

  it('validates physical meters: fields, removed fields, references, unique identifier', async () => {
    const meter = { siteId: site.id, direction: 'consumer', identifier: 'M-1', measuring: 'readings_accurate', startDate: start };
    await expectRejected(a.api, { path: '/v1/meters', body: { ...meter, parentMeterId: producer.id } }, { status: 400, code: 'field_removed', path: 'parentMeterId' });
    await expectRejected(a.api, { path: '/v1/meters', body: { ...meter, priority: 1 } }, { status: 400, code: 'field_removed', path: 'priority' });
    await expectRejected(a.api, { path: '/v1/meters', body: { ...meter, mpo: 'x' } }, { status: 400, code: 'field_removed', path: 'mpo' });
    await expectRejected(a.api, { path: '/v1/meters', body: { ...meter, startDate: '2026-01-01T00:00:00Z' } }, { status: 400, code: 'invalid_date_time', path: 'startDate' });
    await expectRejected(a.api, { path: '/v1/meters', body: { ...meter, direction: 'prosumer' } }, { status: 400, code: 'invalid_value', path: 'direction' });
    await expectRejected(a.api, { path: '/v1/meters', body: { ...meter, measuring: 'guess' } }, { status: 400, code: 'invalid_value', path: 'measuring' });
    const foreignSite = await fixtures.site(b.api);
    await expectRejected(a.api, { path: '/v1/meters', body: { ...meter, siteId: foreignSite.id } }, { status: 400, code: 'reference_not_found', path: 'siteId' });
    await expectRejected(a.api, { path: '/v1/meters', body: { ...meter, grid: true } }, { status: 400, code: 'grid_requires_formula', path: 'grid' });
    await expectRejected(a.api, { path: '/v1/meters', body: { ...meter, mpoId: virtualMpo.id } }, { status: 400, code: 'formula_required', path: 'formula' });
    const created = await create(a.api, '/v1/meters', meter);
    expect(created).toMatchObject({ ...meter, mpoId: null, serial: null, grid: false, formula: null, customAttributes: {} });
    await expectRejected(a.api, { path: '/v1/meters', body: { ...meter, siteId: otherSite.id } }, { status: 409, code: 'meter_identifier_taken' });
    expect((await b.api.post('/v1/meters', { ...meter, siteId: foreignSite.id })).status).toBe(201);
  });

  it('checks the formula grammar with the JSON path of each offending component', async () => {
    const cases: Array<[unknown[], string, string]> = [
      [[], 'formula', 'formula_empty'],
      [[{ type: 'meter', meterId: producer.id }, { type: 'arithmetic', arithmetic: 'addition' }], 'formula[1]', 'formula_trailing_arithmetic'],
      [[{ type: 'meter', meterId: producer.id }, { type: 'aggregation', aggregation: 'sum_local_producer' }], 'formula[1]', 'formula_operator_expected'],
      [[{ type: 'arithmetic', arithmetic: 'addition' }, { type: 'meter', meterId: producer.id }], 'formula[0]', 'formula_operand_expected'],
      [[{ type: 'aggregation', aggregation: 'sum_customer_consumers' }], 'formula[0].customerId', 'formula_customer_required'],
      [[{ type: 'aggregation', aggregation: 'sum_everything' }], 'formula[0].aggregation', 'formula_aggregation_invalid'],
      [[{ type: 'meter', meterId: 'a3f1c4de-1111-4222-8333-944455556666' }], 'formula[0].meterId', 'reference_not_found'],
    ];
    for (const [formula, path, code] of cases) {
      await expectRejected(a.api, { path: '/v1/meters', body: virtual({ formula }) }, { status: 400, code, path });
    }
  });

  it('enforces the virtual meter rules: virtual MPO, load profile, same site, customers of the account', async () => {
    const smgw = await fixtures.mpo(a.api);
    await expectRejected(a.api, { path: '/v1/meters', body: virtual({ mpoId: smgw.id }) }, { status: 400, code: 'virtual_mpo_required', path: 'mpoId' });
    await expectRejected(a.api, { path: '/v1/meters', body: virtual({ measuring: 'readings_accurate' }) }, { status: 400, code: 'virtual_meter_measuring', path: 'measuring' });
    const elsewhere = await fixtures.meter(a.api, otherSite.id);
    await expectRejected(
      a.api,
      { path: '/v1/meters', body: virtual({ formula: [{ type: 'meter', meterId: elsewhere.id }] }) },
      { status: 400, code: 'formula_meter_other_site', path: 'formula[0].meterId' },
    );
    const foreignCustomer = await fixtures.customer(b.api);
    await expectRejected(
      a.api,
      { path: '/v1/meters', body: virtual({ formula: [{ type: 'aggregation', aggregation: 'sum_customer_consumers', customerId: foreignCustomer.id }] }) },
      { status: 400, code: 'reference_not_found', path: 'formula[0].customerId' },
    );
    const customer = await fixtures.customer(a.api);
    const ok = await create(a.api, '/v1/meters', virtual({ formula: [{ type: 'aggregation', aggregation: 'sum_customer_consumers', customerId: customer.id }] }));
    expect(ok.formula).toEqual([{ type: 'aggregation', aggregation: 'sum_customer_consumers', customerId: customer.id }]);
  });

  it('allows one grid meter per site and no cycles between virtual meters', async () => {
    await create(a.api, '/v1/meters', virtual({ grid: true }));
    await expectRejected(a.api, { path: '/v1/meters', body: virtual({ grid: true }) }, { status: 409, code: 'grid_meter_exists' });
    const first = await create(a.api, '/v1/meters', virtual({}));
    const second = await create(a.api, '/v1/meters', virtual({ formula: [{ type: 'meter', meterId: first.id }] }));
    const cycle = await a.api.patch(`/v1/meters/${first.id}`, { formula: [{ type: 'meter', meterId: second.id }] });
    expect([cycle.status, cycle.body.errors?.[0]?.code]).toEqual([400, 'formula_cycle']);
    expect((await a.api.get(`/v1/meters/${first.id}`)).body.formula).toEqual([{ type: 'meter', meterId: producer.id }]);
  });

  it('patches meters, keeps a meter with dependents on its site, and hides other accounts', async () => {
    const meter = await fixtures.meter(a.api, site.id);
    const patched = await a.api.patch(`/v1/meters/${meter.id}`, { serial: 'SN-9', identifier: 'renamed' });
    expect(patched.body.data).toMatchObject({ serial: 'SN-9', identifier: 'renamed' });
    const user = await fixtures.customer(a.api);
    const product = await fixtures.product(a.api);
    const contract = await fixtures.contract(a.api, { customerId: user.id, electricityProductId: product.id, siteId: site.id });
    await create(a.api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: meter.id, startDate: '2026-01-01' });
    const move = await a.api.patch(`/v1/meters/${meter.id}`, { siteId: otherSite.id });
    expect([move.status, move.body.code]).toEqual([409, 'meter_in_use']);
    expect((await b.api.get(`/v1/meters/${meter.id}`)).status).toBe(404);
    expect((await b.api.patch(`/v1/meters/${meter.id}`, { serial: 'x' })).status).toBe(404);
    expect((await a.api.get(`/v1/meters/${meter.id}`)).body.serial).toBe('SN-9');
  });
});
