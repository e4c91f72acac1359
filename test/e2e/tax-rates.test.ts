import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { create, expectRejected } from '../support/fixtures.js';

describe('tax rates', () => {
  let app: TestApp;
  let a: SignedUp;

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('A');
  });
  afterAll(() => app.close());

  it('keeps a history per name without overlaps, with decimal-string percentages', async () => {
    const until = await create(a.api, '/v1/tax-rates', { name: 'VAT', percentage: '16', validFrom: '2020-07-01', validUntil: '2021-01-01' });
    expect(until).toMatchObject({ name: 'VAT', percentage: '16.00', validFrom: '2020-07-01', validUntil: '2021-01-01' });
    const open = await create(a.api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2021-01-01' });
    expect(open.validUntil).toBeNull();
    await create(a.api, '/v1/tax-rates', { name: 'reduced', percentage: '7.00', validFrom: '2020-01-01' });
    const overlap = await expectRejected(a.api, { path: '/v1/tax-rates', body: { name: 'VAT', percentage: '5.00', validFrom: '2020-12-01', validUntil: '2021-02-01' } }, { status: 409, code: 'tax_rate_overlaps' });
    expect(overlap.detail).toMatch(/2020-07-01|2021-01-01/);
    for (const percentage of ['19.000', '101.00', '-1', 'nineteen']) {
      await expectRejected(a.api, { path: '/v1/tax-rates', body: { name: 'X', percentage, validFrom: '2026-01-01' } }, { status: 400, code: 'invalid_percentage', path: 'percentage' });
    }
    await expectRejected(a.api, { path: '/v1/tax-rates', body: { name: 'X', percentage: 19, validFrom: '2026-01-01' } }, { status: 400, code: 'invalid_type', path: 'percentage' });
    await expectRejected(a.api, { path: '/v1/tax-rates', body: { name: 'X', percentage: '1.00', validFrom: '2026-01-01', validUntil: '2026-01-01' } }, { status: 400, code: 'end_not_after_start', path: 'validUntil' });

    const closed = await a.api.patch(`/v1/tax-rates/${open.id}`, { validUntil: '2030-01-01', percentage: '19.5' });
    expect(closed.body.data).toMatchObject({ percentage: '19.50', validUntil: '2030-01-01' });
    const collide = await a.api.patch(`/v1/tax-rates/${until.id}`, { validUntil: '2021-06-01' });
    expect([collide.status, collide.body.code]).toEqual([409, 'tax_rate_overlaps']);
    expect((await a.api.get('/v1/tax-rates?name=VAT')).body.total).toBe(2);
  });
});
