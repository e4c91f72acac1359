import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../support/database.js';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';

const berlin = { locality: 'Berlin', postCode: '10115', country: 'DE' };
const newSite = { name: 'Haus A', type: 'balanced_accurate', address: { line1: 'Invalidenstr. 1', ...berlin } };

describe('sites over REST', () => {
  let app: TestApp;
  let a: SignedUp;
  let b: SignedUp;

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('Acme');
    b = await app.signUp('Other');
  });
  afterAll(() => app.close());

  it('creates, lists, reads and patches a site with the contract envelopes', async () => {
    const created = await a.api.post('/v1/sites', newSite);
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/sites/${created.body.id}`);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Haus A',
      type: 'balanced_accurate',
      balanceResolution: 'PT15M',
      allocationKey: 'priority',
      allocationKeyValidFrom: null,
      address: { line1: 'Invalidenstr. 1', line2: null, line3: null, line4: null, ...berlin },
      customAttributes: {},
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: created.body.createdAt,
    });

    const read = await a.api.get(`/v1/sites/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const patched = await a.api.patch(`/v1/sites/${created.body.id}`, { name: 'Haus B', address: { line1: null, line2: 'Hof' } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Haus B', address: { line1: null, line2: 'Hof', ...berlin } });

    const list = await a.api.get('/v1/sites');
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.data).toEqual([patched.body.data]);
  });

  it('derives the resolution from the type and rejects one that does not fit', async () => {
    const monthly = await a.api.post('/v1/sites', { ...newSite, type: 'unbalanced_inaccurate' });
    expect(monthly.body.balanceResolution).toBe('P1M');
    const wrong = await a.api.post('/v1/sites', { ...newSite, type: 'balanced_inaccurate', balanceResolution: 'PT15M' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([{ path: 'balanceResolution', code: 'resolution_mismatch', message: expect.any(String) }]);

    const changedType = await a.api.patch(`/v1/sites/${monthly.body.id}`, { type: 'balanced_accurate' });
    expect(changedType.body.data.balanceResolution).toBe('PT15M');
  });

  it('answers validation problems with stable codes, removed fields naming the replacement', async () => {
    const response = await a.api.post('/v1/sites', {
      name: '',
      type: 'somewhere',
      timezone: 'Europe/Berlin',
      address1: 'Street 1',
      colour: 'red',
      address: { locality: 'Berlin', country: 'de', address2: 'x' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status: 400, code: 'validation_failed', instance: '/v1/sites', requestId: expect.any(String) });
    const codes = Object.fromEntries(response.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]));
    expect(codes).toEqual({
      timezone: 'field_removed',
      address1: 'field_removed',
      'address.address2': 'field_removed',
      name: 'too_small',
      type: 'invalid_value',
      colour: 'unknown_field',
      'address.postCode': 'required',
      'address.country': 'invalid_country',
    });
    const removed = response.body.errors.find((e: { path: string }) => e.path === 'address1');
    expect(removed.message).toContain('address.line1');
    expect(response.body.errors.find((e: { path: string }) => e.path === 'timezone').message).toContain('/v1/accounts/{id}');
  });

  it('rejects null for required fields and changes of read-only fields in a patch', async () => {
    const site = (await a.api.post('/v1/sites', newSite)).body;
    const nulls = await a.api.patch(`/v1/sites/${site.id}`, { name: null, address: { locality: null } });
    expect(nulls.status).toBe(400);
    expect(nulls.body.errors.map((e: { path: string; code: string }) => [e.path, e.code])).toEqual([
      ['name', 'not_nullable'],
      ['address.locality', 'not_nullable'],
    ]);
    const readOnly = await a.api.patch(`/v1/sites/${site.id}`, { id: '00000000-0000-4000-8000-000000000000' });
    expect(readOnly.body.errors).toEqual([{ path: 'id', code: 'field_read_only', message: expect.any(String) }]);
    const echoed = await a.api.patch(`/v1/sites/${site.id}`, { id: site.id, name: 'Echo' });
    expect(echoed.status).toBe(200);
  });

  it('pages by limit and offset in creation order and rejects out-of-range values', async () => {
    const account = await app.signUp('Pager');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await account.api.post('/v1/sites', { ...newSite, name: `S${i}` })).body.id);
    const page = await account.api.get('/v1/sites?limit=2&offset=1');
    expect(page.body).toMatchObject({ total: 3 });
    expect(page.body.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(1, 3));
    expect((await account.api.get('/v1/sites?offset=10')).body).toEqual({ data: [], total: 3 });
    for (const query of ['limit=0', 'limit=1001', 'offset=-1', 'limit=abc']) {
      const bad = await account.api.get(`/v1/sites?${query}`);
      expect(bad.status, query).toBe(400);
    }
    const unknown = await account.api.get('/v1/sites?colour=red');
    expect(unknown.body.errors).toEqual([{ path: 'colour', code: 'unknown_parameter', message: expect.any(String) }]);
  });

  it('hides other accounts: their ids are 404 for reads and writes and their data is unchanged', async () => {
    const site = (await a.api.post('/v1/sites', newSite)).body;
    const read = await b.api.get(`/v1/sites/${site.id}`);
    expect(read.status).toBe(404);
    expect(read.body.code).toBe('site_not_found');
    expect((await b.api.patch(`/v1/sites/${site.id}`, { name: 'Stolen' })).status).toBe(404);
    expect((await a.api.get(`/v1/sites/${site.id}`)).body.name).toBe('Haus A');
    expect((await b.api.get('/v1/sites')).body.data.map((s: { id: string }) => s.id)).not.toContain(site.id);
    expect((await b.api.get('/v1/sites/not-a-uuid')).status).toBe(404);
  });

  it('stores every site with its account_id', async () => {
    const site = (await b.api.post('/v1/sites', newSite)).body;
    expect(await queryRows(app.database.url, 'select account_id from sites where id = $1', [site.id])).toEqual([{ account_id: b.accountId }]);
  });
});
