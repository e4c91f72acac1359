import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedUp, type TestApp } from '../support/app.js';
import { queryRows } from '../support/database.js';
import { create, fixtures } from '../support/fixtures.js';
import type { ApiResponse } from '../support/http.js';

/** The same write sent `count` times at once. */
const parallel = (count: number, send: (index: number) => Promise<ApiResponse>) => Promise.all(Array.from({ length: count }, (_, index) => send(index)));

/** Exactly one request won; every other one got the conflict the use case answers one after the other, naming the winner. */
function expectOneWinner(responses: ApiResponse[], status: number, code: string): Record<string, any> {
  const winners = responses.filter((r) => r.status === status);
  expect(winners.length, JSON.stringify(responses.map((r) => r.body))).toBe(1);
  const winner = status === 200 ? winners[0]!.body.data : winners[0]!.body;
  for (const loser of responses.filter((r) => r.status !== status)) {
    expect([loser.status, loser.body.code], JSON.stringify(loser.body)).toEqual([409, code]);
    expect(loser.body.detail).toContain(winner.id);
  }
  return winner;
}

describe('"at most one" rules under concurrent requests', () => {
  let app: TestApp;
  let a: SignedUp;

  beforeAll(async () => {
    app = await startTestApp();
    a = await app.signUp('A');
  });
  afterAll(() => app.close());

  it('creates one virtual MPO per account from six parallel requests', async () => {
    const responses = await parallel(6, (i) => a.api.post('/v1/mpos', { channel: 'pseudo', provider: 'virtual', name: `Virtual ${i}` }));
    const winner = expectOneWinner(responses, 201, 'virtual_mpo_exists');
    expect(await queryRows(app.database.url, `select id from mpos where account_id = $1 and channel = 'pseudo' and provider = 'virtual'`, [a.accountId])).toEqual([{ id: winner.id }]);
    // Other MPOs are not limited.
    const others = await parallel(3, (i) => a.api.post('/v1/mpos', { channel: 'smgw', provider: 'virtual', name: `Gateway ${i}` }));
    expect(others.map((r) => r.status)).toEqual([201, 201, 201]);
  });

  describe('grid meters', () => {
    let b: SignedUp;
    let site: Record<string, any>;
    let virtualMpo: Record<string, any>;
    let producer: Record<string, any>;
    const virtual = (siteId: string, identifier: string, grid: boolean) => ({
      siteId,
      mpoId: virtualMpo.id,
      direction: 'consumer',
      identifier,
      measuring: 'load_profile_accurate',
      startDate: '2026-01-01T00:00:00.000Z',
      formula: [{ type: 'meter', meterId: producer.id }],
      grid,
    });
    const gridMeters = (siteId: string) => queryRows(app.database.url, 'select id from meters where account_id = $1 and site_id = $2 and grid', [b.accountId, siteId]);

    beforeAll(async () => {
      b = await app.signUp('B');
      site = await fixtures.site(b.api);
      virtualMpo = await create(b.api, '/v1/mpos', { channel: 'pseudo', provider: 'virtual', name: 'Virtual' });
      producer = await fixtures.meter(b.api, site.id, { direction: 'producer' });
    });

    it('creates one grid meter per site from six parallel requests', async () => {
      const responses = await parallel(6, (i) => b.api.post('/v1/meters', virtual(site.id, `GRID-${i}`, true)));
      const winner = expectOneWinner(responses, 201, 'grid_meter_exists');
      expect(await gridMeters(site.id)).toEqual([{ id: winner.id }]);
      // The refused requests left no meter.created event behind.
      const events = await queryRows(app.database.url, `select entity_id from events where account_id = $1 and type = 'meter.created' and (data->>'grid')::boolean`, [b.accountId]);
      expect(events).toEqual([{ entity_id: winner.id }]);
    });

    it('makes one of two meters the grid meter when both are patched at once', async () => {
      const otherSite = await fixtures.site(b.api);
      const pv = await fixtures.meter(b.api, otherSite.id, { direction: 'producer' });
      const meters = [];
      for (const identifier of ['OTHER-1', 'OTHER-2']) meters.push(await create(b.api, '/v1/meters', { ...virtual(otherSite.id, identifier, false), formula: [{ type: 'meter', meterId: pv.id }] }));
      const responses = await Promise.all(meters.map((m) => b.api.patch(`/v1/meters/${m.id}`, { grid: true })));
      const winner = expectOneWinner(responses, 200, 'grid_meter_exists');
      expect(await gridMeters(otherSite.id)).toEqual([{ id: winner.id }]);
    });
  });

  it('keeps a tax rate history free of overlaps under six parallel requests', async () => {
    const responses = await parallel(6, (i) => a.api.post('/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: `2026-0${i + 1}-01` }));
    const winner = expectOneWinner(responses, 201, 'tax_rate_overlaps');
    expect(await queryRows(app.database.url, `select id from tax_rates where account_id = $1 and name = 'VAT'`, [a.accountId])).toEqual([{ id: winner.id }]);
  });

  it('keeps one default template per kind under parallel requests; a loser learns it was a conflicting write', async () => {
    const responses = await parallel(4, (i) => a.api.post('/v1/templates', { name: `Invoice ${i}`, kind: 'invoice', locale: 'de-DE', isDefault: true }));
    const created = responses.filter((r) => r.status === 201).map((r) => r.body.id);
    expect(created.length).toBeGreaterThan(0);
    for (const r of responses.filter((x) => x.status !== 201)) expect([r.status, r.body.code]).toEqual([409, 'write_conflict']);
    const defaults = await queryRows(app.database.url, `select id from templates where account_id = $1 and kind = 'invoice' and is_default`, [a.accountId]);
    expect(defaults).toHaveLength(1);
    expect(created).toContain(defaults[0]!.id);
  });
});
