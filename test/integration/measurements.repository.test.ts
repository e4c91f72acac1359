import { beforeAll, describe, expect, it } from 'vitest';
import type { Measurement } from '../../core/domain/measurements/ingest.js';
import type { Meter } from '../../core/domain/meters/meter.js';
import { MikroMeasurementRepository } from '../../core/persistence/measurements/measurement.persistence.js';
import { seriesOf } from '../../core/domain/measurements/aggregation.js';
import { bucketEnergy } from '../../core/domain/measurements/bucket-energy.js';
import { bucketsOf } from '../../core/domain/time/buckets.js';
import { gate, useRepositoryDatabase } from '../support/repository-database.js';

const QH = 15 * 60 * 1000;
const at = (iso: string) => Date.parse(iso);
const m = (meter: Meter, iso: string, wh: number): Measurement => ({ meterId: meter.id, at: at(iso), wh, index: 0 });
const points = (...pairs: [string, number][]) => pairs.map(([iso, wh]) => ({ at: at(iso), wh }));

describe('MikroMeasurementRepository on PostgreSQL', () => {
  const db = useRepositoryDatabase();
  const repo = () => new MikroMeasurementRepository(db.orm.em);
  let accountId: string;
  let otherAccountId: string;
  /** Fresh meters per test: quarter-hour values (day rows) and off-grid readings (a row each). */
  const meters = async () => {
    const site = await db.site(accountId);
    return { profile: await db.meter(accountId, site.id), register: await db.meter(accountId, site.id, { measuring: 'readings_inaccurate' }) };
  };
  const save = (onGrid: Measurement[], offGrid: Measurement[] = [], account = accountId) => db.inTransaction(() => repo().save(account, onGrid, offGrid));
  /** The stored day rows of a meter as [day, [[slot, wh], …], slot count]. */
  const dayRows = async (meterId: string) =>
    (await db.sql<{ day: string; values: (string | null)[] }>('select day::text as day, "values" from measurement_days where meter_id = $1 order by day', [meterId])).map(
      (row) => [row.day, row.values.flatMap((wh, slot) => (wh === null ? [] : [[slot, Number(wh)]])), row.values.length],
    );
  const readingRows = async (meterId: string) =>
    (await db.sql('select at, wh from meter_readings where meter_id = $1 order by at', [meterId])).map((row) => [row.at.toISOString(), Number(row.wh)]);

  beforeAll(async () => {
    accountId = (await db.account()).accountId;
    otherAccountId = (await db.account()).accountId;
  });

  it('stores quarter-hour values as one 96-slot row per meter and UTC day, off-grid readings as a row each', async () => {
    const { profile, register } = await meters();
    await save(
      [m(profile, '2026-03-01T00:00:00.000Z', 100), m(profile, '2026-03-01T23:45:00.000Z', 200), m(profile, '2026-03-02T00:15:00.000Z', 300)],
      [m(register, '2026-03-01T10:07:13.123Z', 5_000), m(register, '2026-03-03T08:00:00.000Z', 5_250)],
    );
    expect(await dayRows(profile.id)).toEqual([
      ['2026-03-01', [[0, 100], [95, 200]], 96],
      ['2026-03-02', [[1, 300]], 96],
    ]);
    expect(await readingRows(register.id)).toEqual([
      ['2026-03-01T10:07:13.123Z', 5_000],
      ['2026-03-03T08:00:00.000Z', 5_250],
    ]);
    expect(await dayRows(register.id)).toEqual([]);
    expect(await readingRows(profile.id)).toEqual([]);
  });

  it('applies corrections: a new value replaces the stored one, slots not sent keep theirs', async () => {
    const { profile, register } = await meters();
    await save([m(profile, '2026-03-01T00:00:00.000Z', 100), m(profile, '2026-03-01T00:15:00.000Z', 110)], [m(register, '2026-03-01T10:07:13.123Z', 5_000)]);
    await save([m(profile, '2026-03-01T00:00:00.000Z', 150), m(profile, '2026-03-01T01:00:00.000Z', 400)], [m(register, '2026-03-01T10:07:13.123Z', 5_100)]);
    expect(await dayRows(profile.id)).toEqual([['2026-03-01', [[0, 150], [1, 110], [4, 400]], 96]]);
    expect(await readingRows(register.id)).toEqual([['2026-03-01T10:07:13.123Z', 5_100]]);
    const loaded = await db.inContext(() => repo().load(accountId, [{ meterId: profile.id, from: at('2026-03-01T00:00:00.000Z'), to: at('2026-03-01T23:45:00.000Z') }]));
    expect(loaded.get(profile.id)).toEqual(points(['2026-03-01T00:00:00.000Z', 150], ['2026-03-01T00:15:00.000Z', 110], ['2026-03-01T01:00:00.000Z', 400]));
  });

  it('loads each meter within its inclusive range, sorted by time, across day rows and readings', async () => {
    const { profile, register } = await meters();
    const { profile: untouched } = await meters();
    await save(
      [m(profile, '2026-03-01T23:30:00.000Z', 1), m(profile, '2026-03-01T23:45:00.000Z', 2), m(profile, '2026-03-02T00:00:00.000Z', 3), m(profile, '2026-03-02T00:15:00.000Z', 4)],
      [m(register, '2026-03-01T12:00:00.001Z', 10), m(register, '2026-03-02T12:00:00.000Z', 20), m(register, '2026-03-03T12:00:00.000Z', 30)],
    );
    const loaded = await db.inContext(() =>
      repo().load(accountId, [
        { meterId: profile.id, from: at('2026-03-01T23:45:00.000Z'), to: at('2026-03-02T00:00:00.000Z') },
        { meterId: register.id, from: at('2026-03-01T12:00:00.001Z'), to: at('2026-03-02T12:00:00.000Z') },
        { meterId: untouched.id, from: at('2026-03-01T00:00:00.000Z'), to: at('2026-03-03T00:00:00.000Z') },
      ]),
    );
    expect(loaded.get(profile.id)).toEqual(points(['2026-03-01T23:45:00.000Z', 2], ['2026-03-02T00:00:00.000Z', 3]));
    expect(loaded.get(register.id)).toEqual(points(['2026-03-01T12:00:00.001Z', 10], ['2026-03-02T12:00:00.000Z', 20]));
    expect(loaded.has(untouched.id)).toBe(false);
    expect(await db.inContext(() => repo().load(accountId, []))).toEqual(new Map());
  });

  it('reads stored quarter hours as a series from a first quarter hour on, as the energy computed from the loaded points', async () => {
    const { profile, register } = await meters();
    const { profile: untouched } = await meters();
    await save(
      [
        m(profile, '2026-03-01T23:15:00.000Z', 7),
        m(profile, '2026-03-01T23:45:00.000Z', 1),
        m(profile, '2026-03-02T00:00:00.000Z', -2),
        m(profile, '2026-03-02T00:30:00.000Z', 3),
        m(profile, '2026-03-02T01:00:00.000Z', 9),
      ],
      [m(register, '2026-03-01T23:50:00.000Z', 5_000)],
    );
    // 23:30 to 01:00 (exclusive): the values of 23:15 and 01:00 lie outside, 23:30 and 00:15 are missing.
    const [start, end] = [at('2026-03-01T23:30:00.000Z'), at('2026-03-02T01:00:00.000Z')];
    const buckets = bucketsOf(start, end, 'PT15M', 'UTC');
    const range = (meterId: string) => ({ meterId, from: start, to: end - QH });
    const series = await db.inContext(() => repo().quarterHours(accountId, [range(profile.id), range(untouched.id)]));
    expect([...series.get(profile.id)!.wh]).toEqual([0, 1, -2, 0, 3, 0]);
    expect([...series.get(profile.id)!.complete]).toEqual([0, 1, 1, 0, 1, 0]);
    expect([...series.get(untouched.id)!.complete]).toEqual([0, 0, 0, 0, 0, 0]);
    const loaded = await db.inContext(() => repo().load(accountId, [{ meterId: profile.id, from: start, to: end - QH }]));
    expect(series.get(profile.id)).toEqual(seriesOf(bucketEnergy('load_profile_accurate', loaded.get(profile.id)!, buckets)));
    // Another account's meters read as empty, and so do nothing asked for.
    expect([...(await db.inContext(() => repo().quarterHours(otherAccountId, [range(profile.id)]))).get(profile.id)!.complete]).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await db.inContext(() => repo().quarterHours(accountId, []))).toEqual(new Map());
    // Each meter over its own range: one quarter hour from 00:30 on.
    const own = await db.inContext(() => repo().quarterHours(accountId, [{ meterId: profile.id, from: at('2026-03-02T00:30:00.000Z'), to: at('2026-03-02T00:30:00.000Z') }]));
    expect(own.get(profile.id)).toEqual({ wh: new Float64Array([3]), complete: new Uint8Array([1]) });
  });

  it('pages a meter over the half-open window [from, to) by time, with the total of the window', async () => {
    const { profile, register } = await meters();
    const values = Array.from({ length: 6 }, (_, i) => m(profile, new Date(at('2026-03-01T23:15:00.000Z') + i * QH).toISOString(), 10 * (i + 1)));
    await save(values, [m(register, '2026-03-01T06:00:00.000Z', 7), m(register, '2026-03-01T07:00:00.000Z', 8)]);
    const page = (meterId: string, [from, to]: string[], limit: number, offset: number) =>
      db.inContext(() => repo().page(accountId, meterId, at(from!), at(to!), limit, offset));
    // 23:15 … 00:30 stored; this window leaves out the first and (to is exclusive) the last.
    const window = ['2026-03-01T23:30:00.000Z', '2026-03-02T00:30:00.000Z'];
    const cases: [string, Awaited<ReturnType<typeof page>>, Awaited<ReturnType<typeof page>>][] = [
      ['first page', await page(profile.id, window, 2, 0), { items: points(['2026-03-01T23:30:00.000Z', 20], ['2026-03-01T23:45:00.000Z', 30]), total: 4 }],
      ['across midnight', await page(profile.id, window, 2, 2), { items: points(['2026-03-02T00:00:00.000Z', 40], ['2026-03-02T00:15:00.000Z', 50]), total: 4 }],
      ['past the end', await page(profile.id, window, 2, 4), { items: [], total: 4 }],
      ['empty window', await page(profile.id, ['2026-03-05T00:00:00.000Z', '2026-03-06T00:00:00.000Z'], 10, 0), { items: [], total: 0 }],
      ['readings', await page(register.id, ['2026-03-01T00:00:00.000Z', '2026-03-01T07:00:00.000Z'], 10, 0), { items: points(['2026-03-01T06:00:00.000Z', 7]), total: 1 }],
    ];
    for (const [name, actual, expected] of cases) expect(actual, name).toEqual(expected);
  });

  it('finds the last value before and the first after a window, over days and readings', async () => {
    const { profile, register } = await meters();
    await save(
      [
        m(profile, '2026-02-27T10:00:00.000Z', 1),
        m(profile, '2026-03-01T00:00:00.000Z', 2),
        m(profile, '2026-03-01T00:15:00.000Z', 3),
        m(profile, '2026-03-04T05:00:00.000Z', 4),
        m(profile, '2026-03-05T05:00:00.000Z', 5),
      ],
      [m(register, '2026-03-01T00:00:00.000Z', 100), m(register, '2026-03-02T00:00:00.000Z', 200), m(register, '2026-03-03T00:00:00.000Z', 300)],
    );
    const found = await db.inContext(() =>
      repo().neighbours(accountId, [
        { meterId: profile.id, before: at('2026-03-01T00:00:00.000Z'), after: at('2026-03-01T00:15:00.000Z') },
        { meterId: register.id, before: at('2026-03-02T00:00:00.000Z'), after: at('2026-03-02T00:00:00.000Z') },
      ]),
    );
    expect(found.get(profile.id)).toEqual(points(['2026-02-27T10:00:00.000Z', 1], ['2026-03-04T05:00:00.000Z', 4]));
    expect(found.get(register.id)).toEqual(points(['2026-03-01T00:00:00.000Z', 100], ['2026-03-03T00:00:00.000Z', 300]));
    const edge = await db.inContext(() => repo().neighbours(accountId, [{ meterId: profile.id, before: at('2026-02-27T10:00:00.000Z'), after: at('2026-03-05T05:00:00.000Z') }]));
    expect(edge.get(profile.id)).toBeUndefined();
  });

  it("never reads another account's values, whatever meter id is asked for", async () => {
    const { profile, register } = await meters();
    await save([m(profile, '2026-03-01T00:00:00.000Z', 100)], [m(register, '2026-03-01T10:00:00.000Z', 5_000)]);
    const window = { from: at('2026-03-01T00:00:00.000Z'), to: at('2026-03-02T00:00:00.000Z') };
    const [loaded, around, profilePage, registerPage] = await db.inContext(async () => [
      await repo().load(otherAccountId, [{ meterId: profile.id, ...window }, { meterId: register.id, ...window }]),
      await repo().neighbours(otherAccountId, [{ meterId: profile.id, before: window.to, after: window.from }, { meterId: register.id, before: window.to, after: window.from }]),
      await repo().page(otherAccountId, profile.id, window.from, window.to, 10, 0),
      await repo().page(otherAccountId, register.id, window.from, window.to, 10, 0),
    ] as const);
    expect([loaded.size, around.size]).toEqual([0, 0]);
    expect(profilePage).toEqual({ items: [], total: 0 });
    expect(registerPage).toEqual({ items: [], total: 0 });
    // The owner still sees them: the empty answers above are isolation, not missing data.
    expect((await db.inContext(() => repo().page(accountId, profile.id, window.from, window.to, 10, 0))).total).toBe(1);
  });

  it('lockMeters holds off a second writer of the same meter until the first transaction ends', async () => {
    const { profile, register } = await meters();
    const { profile: unrelated } = await meters();
    const held = gate();
    const locked = gate();
    const first = db.inTransaction(async () => {
      await repo().lockMeters(accountId, [register.id, profile.id]);
      locked.open();
      await held.promise;
    });
    await locked.promise;
    const events: string[] = [];
    const other = db.inTransaction(() => repo().lockMeters(accountId, [unrelated.id])).then(() => events.push('other meter'));
    const second = db.inTransaction(() => repo().lockMeters(accountId, [profile.id])).then(() => events.push('same meter'));
    await other;
    await db.waitForLockWaiters(1);
    events.push('first commits');
    held.open();
    await Promise.all([first, second]);
    expect(events).toEqual(['other meter', 'first commits', 'same meter']);
  });
});
