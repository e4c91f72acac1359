import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { create, expectRejected, fixtures } from '../support/fixtures.js';

describe('contracts, contract meters and balancing settings', () => {
  let app: TestApp;
  let a: SignedUp;
  let b: SignedUp;
  let site: Record<string, any>;
  let refs: { customerId: string; electricityProductId: string; siteId: string };

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('A');
    b = await app.signUp('B');
    site = await fixtures.site(a.api);
    refs = { customerId: (await fixtures.customer(a.api)).id, electricityProductId: (await fixtures.product(a.api)).id, siteId: site.id };
  });
  afterAll(() => app.close());

  const contractBody = (extra: Record<string, unknown> = {}) => ({ ...refs, dunningBlock: false, startDate: '2026-01-01', number: `N-${Math.random()}`, ...extra });

  it('validates contracts: required boolean dunningBlock, dates, unique number, references of the account', async () => {
    const { dunningBlock: _omitted, ...withoutDunning } = contractBody();
    await expectRejected(a.api, { path: '/v1/contracts', body: withoutDunning }, { status: 400, code: 'required', path: 'dunningBlock' });
    await expectRejected(a.api, { path: '/v1/contracts', body: contractBody({ dunningBlock: 'no' }) }, { status: 400, code: 'invalid_type', path: 'dunningBlock' });
    await expectRejected(a.api, { path: '/v1/contracts', body: contractBody({ startDate: '2026-02-30' }) }, { status: 400, code: 'invalid_date', path: 'startDate' });
    await expectRejected(a.api, { path: '/v1/contracts', body: contractBody({ endDate: '2026-01-01' }) }, { status: 400, code: 'end_not_after_start', path: 'endDate' });
    const foreign = { customerId: (await fixtures.customer(b.api)).id, electricityProductId: (await fixtures.product(b.api)).id, siteId: (await fixtures.site(b.api)).id };
    for (const field of ['customerId', 'electricityProductId', 'siteId'] as const) {
      const body = await expectRejected(a.api, { path: '/v1/contracts', body: contractBody({ [field]: foreign[field] }) }, { status: 400, code: 'reference_not_found', path: field });
      expect(body.errors).toHaveLength(1);
    }
    const contract = await create(a.api, '/v1/contracts', contractBody({ number: 'K-1', dunningBlock: true, endDate: '2027-01-01' }));
    expect(contract).toMatchObject({ number: 'K-1', dunningBlock: true, startDate: '2026-01-01', endDate: '2027-01-01', customAttributes: {} });
    await expectRejected(a.api, { path: '/v1/contracts', body: contractBody({ number: 'K-1' }) }, { status: 409, code: 'contract_number_taken' });
    expect((await b.api.post('/v1/contracts', { ...foreign, dunningBlock: false, startDate: '2026-01-01', number: 'K-1' })).status).toBe(201);
  });

  it('answers the removed /v2/contracts with 410', async () => {
    expect((await a.api.post('/v2/contracts', contractBody())).status).toBe(410);
  });

  it('assigns a meter to one contract at a time, on the contract site, not before the contract starts', async () => {
    const contract = await create(a.api, '/v1/contracts', contractBody({ startDate: '2026-02-01' }));
    const meter = await fixtures.meter(a.api, site.id);
    const otherSite = await fixtures.site(a.api);
    const stranger = await fixtures.meter(a.api, otherSite.id);
    const assignment = { contractId: contract.id, siteId: site.id, meterId: meter.id, startDate: '2026-02-01' };
    await expectRejected(a.api, { path: '/v1/contract-meters', body: { ...assignment, meterId: stranger.id } }, { status: 400, code: 'meter_not_on_site', path: 'meterId' });
    await expectRejected(a.api, { path: '/v1/contract-meters', body: { ...assignment, siteId: otherSite.id } }, { status: 400, code: 'site_mismatch', path: 'siteId' });
    await expectRejected(a.api, { path: '/v1/contract-meters', body: { ...assignment, startDate: '2026-01-15' } }, { status: 400, code: 'starts_before_contract', path: 'startDate' });
    const foreignMeter = await fixtures.meter(b.api, (await fixtures.site(b.api)).id);
    await expectRejected(a.api, { path: '/v1/contract-meters', body: { ...assignment, meterId: foreignMeter.id } }, { status: 400, code: 'reference_not_found', path: 'meterId' });

    const first = await create(a.api, '/v1/contract-meters', { ...assignment, endDate: '2026-06-01' });
    expect(first).toMatchObject({ ...assignment, endDate: '2026-06-01' });
    const successor = await create(a.api, '/v1/contracts', contractBody({ startDate: '2026-02-01' }));
    await expectRejected(a.api, { path: '/v1/contract-meters', body: { ...assignment, contractId: successor.id, startDate: '2026-05-01' } }, { status: 409, code: 'meter_already_assigned' });
    await create(a.api, '/v1/contract-meters', { ...assignment, contractId: successor.id, startDate: '2026-06-01' });
    const extend = await a.api.patch(`/v1/contract-meters/${first.id}`, { endDate: null });
    expect([extend.status, extend.body.code]).toEqual([409, 'meter_already_assigned']);

    const moveSite = await a.api.patch(`/v1/contracts/${contract.id}`, { siteId: otherSite.id });
    expect([moveSite.status, moveSite.body.code]).toEqual([409, 'contract_has_meters']);
    const patched = await a.api.patch(`/v1/contracts/${contract.id}`, { dunningBlock: true, endDate: '2027-01-01' });
    expect(patched.body.data).toMatchObject({ dunningBlock: true, endDate: '2027-01-01' });
  });

  it('keeps balancing settings to balanced sites, their own meters, one active setting per meter', async () => {
    const meter = await fixtures.meter(a.api, site.id, { startDate: '2026-03-01T10:00:00.000Z' });
    const setting = { siteId: site.id, meterId: meter.id, balancing: 'participant', startDate: '2026-03-01', priority: 2 };
    const unbalanced = await fixtures.site(a.api, { type: 'unbalanced_accurate' });
    const path = '/v1/meter-balancing-settings';
    await expectRejected(a.api, { path, body: { ...setting, siteId: unbalanced.id } }, { status: 400, code: 'site_not_balanced', path: 'siteId' });
    await expectRejected(a.api, { path, body: { ...setting, meterId: (await fixtures.meter(a.api, unbalanced.id)).id } }, { status: 400, code: 'meter_not_on_site', path: 'meterId' });
    await expectRejected(a.api, { path, body: { ...setting, accountId: a.accountId } }, { status: 400, code: 'field_removed', path: 'accountId' });
    await expectRejected(a.api, { path, body: { ...setting, startDate: '2026-02-28' } }, { status: 400, code: 'starts_before_meter', path: 'startDate' });
    await expectRejected(a.api, { path, body: { ...setting, priority: 1.5 } }, { status: 400, code: 'invalid_type', path: 'priority' });
    await expectRejected(a.api, { path, body: { ...setting, balancing: 'observer' } }, { status: 400, code: 'invalid_value', path: 'balancing' });
    const created = await create(a.api, path, { ...setting, endDate: '2026-07-01' });
    expect(created).toMatchObject({ ...setting, endDate: '2026-07-01' });
    await expectRejected(a.api, { path, body: { ...setting, startDate: '2026-06-30' } }, { status: 409, code: 'balancing_setting_overlaps' });
    const later = await create(a.api, path, { ...setting, startDate: '2026-07-01', priority: null });
    expect(later.priority).toBeNull();
    const patched = await a.api.patch(`${path}/${created.id}`, { priority: -5 });
    expect(patched.body.data.priority).toBe(-5);
    expect((await b.api.get(`${path}/${created.id}`)).status).toBe(404);
  });
});
