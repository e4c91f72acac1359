import { beforeAll, describe, expect, it } from 'vitest';
import { NIL_UUID } from '../../core/domain/balancing/balance-rows.js';
import type { Flow, IntervalState } from '../../core/domain/balancing/site-balance.js';
import { MikroBalancingRepository } from '../../core/persistence/balancing/balance.persistence.js';
import { gate, useRepositoryDatabase } from '../support/repository-database.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const byTime = <T extends { at: number; kind: string }>(flows: T[]) => [...flows].sort((x, y) => x.at - y.at || x.kind.localeCompare(y.kind));

describe('MikroBalancingRepository on PostgreSQL', () => {
  const db = useRepositoryDatabase();
  const repo = () => new MikroBalancingRepository(db.orm.em);
  let accountId: string;
  let otherAccountId: string;
  const change = (meterId: string, from: string, to: string) => ({ meterId, from: at(from), to: at(to) });
  const markDirty = (account: string, changes: ReturnType<typeof change>[]) => db.inTransaction(() => repo().markDirty(account, changes));
  const dirtyRows = async (siteIds: string[]) =>
    (
      await db.sql('select account_id, site_id, from_at, to_at from balancing_dirty_ranges where site_id = any($1::uuid[]) order by from_at', [siteIds])
    ).map((r) => [r.account_id, r.site_id, r.from_at.toISOString(), r.to_at.toISOString()]);
  /** A balanced site with a consumer and a producer. */
  const balancedSite = async (account = accountId) => {
    const site = await db.site(account);
    return { site, consumer: await db.meter(account, site.id), producer: await db.meter(account, site.id, { direction: 'producer' }) };
  };

  beforeAll(async () => {
    accountId = (await db.account()).accountId;
    otherAccountId = (await db.account()).accountId;
  });

  it('markDirty records one range per balanced site (or site with virtual meters), coalescing its meters', async () => {
    const { site, consumer, producer } = await balancedSite();
    const monthly = await db.site(accountId, 'balanced_inaccurate');
    const reader = await db.meter(accountId, monthly.id, { measuring: 'readings_inaccurate' });
    const plain = await db.site(accountId, 'unbalanced_accurate');
    const unbalanced = await db.meter(accountId, plain.id);
    const withVirtual = await db.site(accountId, 'unbalanced_accurate');
    const physical = await db.meter(accountId, withVirtual.id);
    await db.meter(accountId, withVirtual.id, { formula: [{ type: 'meter', meterId: physical.id }] });
    const foreign = await balancedSite(otherAccountId);

    const marked = await markDirty(accountId, [
      change(consumer.id, '2026-03-01T10:00:00.000Z', '2026-03-01T12:00:00.000Z'),
      change(producer.id, '2026-03-01T08:00:00.000Z', '2026-03-01T11:00:00.000Z'),
      change(reader.id, '2026-03-02T00:00:00.000Z', '2026-03-02T00:00:00.000Z'),
      change(unbalanced.id, '2026-03-03T00:00:00.000Z', '2026-03-03T01:00:00.000Z'),
      change(physical.id, '2026-03-04T00:00:00.000Z', '2026-03-04T01:00:00.000Z'),
      // Another account's meter named under this account: not a change of this account.
      change(foreign.consumer.id, '2026-03-05T00:00:00.000Z', '2026-03-05T01:00:00.000Z'),
    ]);
    expect(marked.sort()).toEqual([site.id, monthly.id, withVirtual.id].sort());
    expect(await dirtyRows([site.id, monthly.id, plain.id, withVirtual.id, foreign.site.id])).toEqual([
      [accountId, site.id, '2026-03-01T08:00:00.000Z', '2026-03-01T12:00:00.000Z'],
      [accountId, monthly.id, '2026-03-02T00:00:00.000Z', '2026-03-02T00:00:00.000Z'],
      [accountId, withVirtual.id, '2026-03-04T00:00:00.000Z', '2026-03-04T01:00:00.000Z'],
    ]);
    expect(await markDirty(accountId, [])).toEqual([]);
  });

  it("takeDirty drains a site's ranges of its own account, and a rollback puts them back", async () => {
    const { site, consumer } = await balancedSite();
    await markDirty(accountId, [change(consumer.id, '2026-03-01T10:00:00.000Z', '2026-03-01T11:00:00.000Z')]);
    await markDirty(accountId, [change(consumer.id, '2026-03-01T09:00:00.000Z', '2026-03-01T09:45:00.000Z')]);

    expect(await db.inTransaction(() => repo().takeDirty(otherAccountId, site.id))).toEqual([]);
    await expect(
      db.inTransaction(async () => {
        expect(await repo().takeDirty(accountId, site.id)).toHaveLength(2);
        throw new Error('worker crashed');
      }),
    ).rejects.toThrow('worker crashed');
    expect(await dirtyRows([site.id])).toHaveLength(2);

    const taken = await db.inTransaction(() => repo().takeDirty(accountId, site.id));
    expect(taken.sort((x, y) => x.from - y.from).map((r) => [iso(r.from), iso(r.to)])).toEqual([
      ['2026-03-01T09:00:00.000Z', '2026-03-01T09:45:00.000Z'],
      ['2026-03-01T10:00:00.000Z', '2026-03-01T11:00:00.000Z'],
    ]);
    expect(await dirtyRows([site.id])).toEqual([]);
    expect(await db.inTransaction(() => repo().takeDirty(accountId, site.id))).toEqual([]);
  });

  it('dirtySites lists every site with pending ranges once, of every account', async () => {
    const mine = await balancedSite();
    const theirs = await balancedSite(otherAccountId);
    await markDirty(accountId, [change(mine.consumer.id, '2026-03-01T00:00:00.000Z', '2026-03-01T01:00:00.000Z')]);
    await markDirty(accountId, [change(mine.producer.id, '2026-03-02T00:00:00.000Z', '2026-03-02T01:00:00.000Z')]);
    await markDirty(otherAccountId, [change(theirs.consumer.id, '2026-03-01T00:00:00.000Z', '2026-03-01T01:00:00.000Z')]);
    const sites = await db.inContext(() => repo().dirtySites());
    expect(sites.filter((s) => [mine.site.id, theirs.site.id].includes(s.siteId)).sort((x, y) => x.accountId.localeCompare(y.accountId))).toEqual(
      [
        { accountId, siteId: mine.site.id },
        { accountId: otherAccountId, siteId: theirs.site.id },
      ].sort((x, y) => x.accountId.localeCompare(y.accountId)),
    );
    await db.inTransaction(() => repo().takeDirty(accountId, mine.site.id));
    expect((await db.inContext(() => repo().dirtySites())).map((s) => s.siteId)).not.toContain(mine.site.id);
  });

  it('lockSite serialises balancing of one site and leaves other sites alone', async () => {
    const [{ site }, { site: other }] = [await balancedSite(), await balancedSite()];
    const held = gate();
    const locked = gate();
    const first = db.inTransaction(async () => {
      await repo().lockSite(accountId, site.id);
      locked.open();
      await held.promise;
    });
    await locked.promise;
    const events: string[] = [];
    const otherSite = db.inTransaction(() => repo().lockSite(accountId, other.id)).then(() => events.push('other site'));
    const sameSite = db.inTransaction(() => repo().lockSite(accountId, site.id)).then(() => events.push('same site'));
    await otherSite;
    await db.waitForLockWaiters(1);
    events.push('first commits');
    held.open();
    await Promise.all([first, sameSite]);
    expect(events).toEqual(['other site', 'first commits', 'same site']);
  });

  it('replaceDays writes compact day rows with local-day totals, flows reads them back filtered', async () => {
    const { site, consumer, producer } = await balancedSite();
    const second = await db.meter(accountId, site.id);
    const flow = (when: string, kind: Flow['kind'], debitorId: string | null, creditorId: string | null, wh: number): Flow => ({ at: at(when), kind, debitorId, creditorId, wh });
    const flows = [
      flow('2026-03-01T00:00:00.000Z', 'local', consumer.id, producer.id, 100),
      flow('2026-03-01T23:45:00.000Z', 'local', consumer.id, producer.id, 50),
      flow('2026-03-01T00:00:00.000Z', 'grid', consumer.id, null, 30),
      flow('2026-03-02T00:15:00.000Z', 'feed_in', null, producer.id, 20),
      flow('2026-03-02T00:15:00.000Z', 'local', second.id, producer.id, 70),
    ];
    const states: IntervalState[] = [
      { at: at('2026-03-01T00:00:00.000Z'), balanced: true },
      { at: at('2026-03-01T12:00:00.000Z'), balanced: false },
      { at: at('2026-03-01T23:45:00.000Z'), balanced: true },
      { at: at('2026-03-02T00:15:00.000Z'), balanced: true },
    ];
    // Local midnight at 23:00 UTC: slots 0–91 belong to the local day before, 92–95 to the next.
    await db.inTransaction(() => repo().replaceDays(accountId, site.id, ['2026-03-01', '2026-03-02'], flows, states, () => 92));

    const balanceRows = () =>
      db.sql(`select day::text, kind, debitor_id, creditor_id, head_wh, tail_wh, (select count(*)::int from unnest("values") v where v is not null) as slots
              from balance_days where site_id = $1 order by day, kind, debitor_id`, [site.id]);
    expect((await balanceRows()).map(Object.values)).toEqual([
      ['2026-03-01', 'grid', consumer.id, NIL_UUID, '30', null, 1],
      ['2026-03-01', 'local', consumer.id, producer.id, '100', '50', 2],
      ['2026-03-02', 'feed_in', NIL_UUID, producer.id, '20', null, 1],
      ['2026-03-02', 'local', second.id, producer.id, '70', null, 1],
    ]);
    const stateRows = () =>
      db.sql(`select day::text, head_balanced, tail_balanced, states[1] as s0, states[49] as s48, states[96] as s95 from balancing_days where site_id = $1 order by day`, [site.id]);
    expect((await stateRows()).map(Object.values)).toEqual([
      ['2026-03-01', 1, 1, 1, 0, 1],
      ['2026-03-02', 1, 0, null, null, null],
    ]);

    const read = (filter: Parameters<MikroBalancingRepository['flows']>[1], from: string, to: string, account = accountId) =>
      db.inContext(() => repo().flows(account, filter, at(from), at(to)));
    const cases: [string, Awaited<ReturnType<typeof read>>, Flow[]][] = [
      ['everything', await read({ siteId: site.id }, '2026-03-01T00:00:00.000Z', '2026-03-03T00:00:00.000Z'), flows],
      ['one debitor', await read({ debitorMeterId: consumer.id }, '2026-03-01T00:00:00.000Z', '2026-03-03T00:00:00.000Z'), flows.slice(0, 3)],
      ['creditor, end exclusive', await read({ siteId: site.id, creditorMeterId: producer.id }, '2026-03-01T00:00:00.000Z', '2026-03-01T23:45:00.000Z'), flows.slice(0, 1)],
      ['other account', await read({ siteId: site.id }, '2026-03-01T00:00:00.000Z', '2026-03-03T00:00:00.000Z', otherAccountId), []],
    ];
    for (const [name, actual, expected] of cases) expect(byTime(actual), name).toEqual(byTime(expected.map((f) => ({ ...f, siteId: site.id }))));

    // Replacing a day drops its old flows (the grid flow too) and leaves the other day alone.
    const replacement = [flow('2026-03-01T00:00:00.000Z', 'local', consumer.id, producer.id, 90)];
    await db.inTransaction(() => repo().replaceDays(accountId, site.id, ['2026-03-01'], replacement, [{ at: replacement[0]!.at, balanced: true }], () => 92));
    expect((await balanceRows()).map((r) => [r.day, r.kind, r.head_wh, r.tail_wh])).toEqual([
      ['2026-03-01', 'local', '90', null],
      ['2026-03-02', 'feed_in', '20', null],
      ['2026-03-02', 'local', '70', null],
    ]);
    expect((await stateRows()).map(Object.values)).toEqual([
      ['2026-03-01', 1, 0, 1, null, null],
      ['2026-03-02', 1, 0, null, null, null],
    ]);
  });

  it('status summarises the balanced, incomplete and pending intervals of one site of the account', async () => {
    const { site, consumer } = await balancedSite();
    const status = (account = accountId) => db.inContext(() => repo().status(account, site.id));
    expect(await status()).toEqual({ lastBalancedAt: null, incompleteIntervals: 0, firstIncompleteAt: null, dirtyRanges: 0, held: [] });

    const states: [string, boolean][] = [
      ['2026-03-01T02:30:00.000Z', true],
      ['2026-03-01T05:00:00.000Z', false],
      ['2026-03-01T07:30:00.000Z', false],
      ['2026-03-02T01:15:00.000Z', true],
      ['2026-03-02T01:30:00.000Z', false],
    ];
    await db.inTransaction(() =>
      repo().replaceDays(accountId, site.id, ['2026-03-01', '2026-03-02'], [], states.map(([when, balanced]) => ({ at: at(when), balanced })), () => 92),
    );
    await markDirty(accountId, [change(consumer.id, '2026-03-03T00:00:00.000Z', '2026-03-03T01:00:00.000Z')]);
    const summary = await status();
    expect({ ...summary, lastBalancedAt: iso(summary.lastBalancedAt), firstIncompleteAt: iso(summary.firstIncompleteAt) }).toEqual({
      lastBalancedAt: '2026-03-02T01:15:00.000Z',
      incompleteIntervals: 3,
      firstIncompleteAt: '2026-03-01T05:00:00.000Z',
      dirtyRanges: 1,
      held: [],
    });
    expect(await status(otherAccountId)).toEqual({ lastBalancedAt: null, incompleteIntervals: 0, firstIncompleteAt: null, dirtyRanges: 0, held: [] });
  });

  it('markSiteDirty records the ranges of a key or setting change up to the last balanced day, leaving out those after it', async () => {
    const { site } = await balancedSite();
    await db.inTransaction(() => repo().markSiteDirty(accountId, site.id, [{ from: at('2026-03-01T00:00:00.000Z'), to: null }]));
    expect(await dirtyRows([site.id])).toEqual([]);

    await db.inTransaction(() => repo().replaceDays(accountId, site.id, ['2026-03-01', '2026-03-02'], [], [], () => 92));
    await db.inTransaction(() =>
      repo().markSiteDirty(accountId, site.id, [
        { from: at('2026-03-01T23:00:00.000Z'), to: null },
        { from: at('2026-02-01T00:00:00.000Z'), to: at('2026-02-10T00:00:00.000Z') },
        { from: at('2026-03-03T00:00:00.000Z'), to: null },
      ]),
    );
    expect(await dirtyRows([site.id])).toEqual([
      [accountId, site.id, '2026-02-01T00:00:00.000Z', '2026-02-10T00:00:00.000Z'],
      [accountId, site.id, '2026-03-01T23:00:00.000Z', '2026-03-02T23:45:00.000Z'],
    ]);
    await db.inTransaction(() => repo().markSiteDirty(otherAccountId, site.id, [{ from: at('2026-03-01T00:00:00.000Z'), to: null }]));
    expect(await dirtyRows([site.id])).toHaveLength(2);
  });

  it('held ranges wait: not taken, not pending, not swept, listed in the status until their invoice is gone', async () => {
    const { site, consumer } = await balancedSite();
    const invoiceId = '6f1c0c5e-0000-4000-8000-00000000beef';
    await db.inTransaction(() => repo().hold(accountId, site.id, [{ from: at('2026-03-01T10:00:00.000Z'), to: at('2026-03-01T10:45:00.000Z'), invoiceId }]));
    await markDirty(accountId, [change(consumer.id, '2026-03-05T00:00:00.000Z', '2026-03-05T00:00:00.000Z')]);
    const status = await db.inContext(() => repo().status(accountId, site.id));
    expect([status.dirtyRanges, status.held]).toEqual([1, [{ from: at('2026-03-01T10:00:00.000Z'), to: at('2026-03-01T10:45:00.000Z'), invoiceId }]]);
    expect((await db.inTransaction(() => repo().takeDirty(accountId, site.id))).map((r) => iso(r.from))).toEqual(['2026-03-05T00:00:00.000Z']);
    expect((await db.inContext(() => repo().dirtySites())).map((s) => s.siteId)).not.toContain(site.id);

    // No issued or paid invoice of that id: released, pending again.
    await db.inContext(() => repo().releaseHeld());
    expect((await db.inContext(() => repo().dirtySites())).map((s) => s.siteId)).toContain(site.id);
    expect((await db.inTransaction(() => repo().takeDirty(accountId, site.id))).map((r) => [iso(r.from), iso(r.to)])).toEqual([['2026-03-01T10:00:00.000Z', '2026-03-01T10:45:00.000Z']]);
  });
});
