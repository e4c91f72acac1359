import { describe, expect, it } from 'vitest';
import { allocateInterval, type AllocationKey } from '../../../core/domain/balancing/allocation.js';
import { balanceSite, type Flow, type Participation } from '../../../core/domain/balancing/site-balance.js';
import { seriesOf, type BucketEnergy, type EnergySeries } from '../../../core/domain/measurements/aggregation.js';
import { startOfDay } from '../../../core/domain/time/calendar-date.js';
import { bucketsOf, QUARTER_HOUR_MS, type Bucket } from '../../../core/domain/time/buckets.js';

const ZONE = 'Europe/Berlin';
const GRID = 'grid';
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** The quarter hours of a local day in Berlin (92 or 100 on DST days). */
function quarterHoursOf(day: string, next: string): Bucket[] {
  return bucketsOf(startOfDay(day, ZONE).getTime(), startOfDay(next, ZONE).getTime(), 'PT15M', ZONE);
}

const byQuarterHour = (bucket: Bucket) => Math.floor(bucket.start / QUARTER_HOUR_MS);

function participation(meterId: string, direction: Participation['direction'], extra: Partial<Participation> = {}): Participation {
  return { meterId, direction, priority: null, shareMicros: null, from: 0, to: null, ...extra };
}

/** Complete energy per bucket from a function of the bucket's index. */
function energyOf(buckets: readonly Bucket[], wh: (index: number) => number): EnergySeries {
  return seriesOf(buckets.map((b, i) => ({ start: b.start, end: b.end, wh: wh(i), complete: true })));
}

/** Sum of the flows of a kind at one instant, by debitor or creditor. */
function total(flows: readonly Flow[], at: number, kind: Flow['kind'], side: 'debitorId' | 'creditorId', meterId: string | null): number {
  return sum(flows.filter((f) => f.at === at && f.kind === kind && f[side] === meterId).map((f) => f.wh));
}

describe('balanceSite with allocation keys, Berlin DST days', () => {
  const participations = [
    participation('pv', 'producer'),
    participation('roof', 'producer'),
    participation('flat-a', 'consumer', { priority: 1, shareMicros: 250_000 }),
    participation('flat-b', 'consumer', { shareMicros: 500_000 }),
    participation('flat-c', 'consumer', { shareMicros: 250_000 }),
  ];
  // Varied so that supply is now short, now ample, and remainders occur.
  const profiles: Record<string, (i: number) => number> = {
    pv: (i) => (i % 48) * 37,
    roof: (i) => (i * 13) % 101,
    'flat-a': (i) => 200 + ((i * 7) % 31),
    'flat-b': (i) => 150 + ((i * 11) % 97),
    'flat-c': (i) => (i % 5 === 0 ? 0 : 90 + (i % 17)),
  };

  it.each([
    ['2026-03-29', 92, '2026-03-30'],
    ['2026-10-25', 100, '2026-10-26'],
  ])('dynamic key on %s: all %i quarter hours balanced, totals exact', (day, count, next) => {
    const buckets = quarterHoursOf(day, next);
    expect(buckets).toHaveLength(count);
    const energy = new Map(Object.entries(profiles).map(([id, wh]) => [id, energyOf(buckets, wh)]));
    const { flows, states } = balanceSite({ buckets, rotation: byQuarterHour, keyAt: () => 'dynamic', participations, energy, gridMeterId: GRID });

    expect(states).toEqual(buckets.map((b) => ({ at: b.start, balanced: true })));
    buckets.forEach((bucket, i) => {
      const supply = profiles.pv!(i) + profiles.roof!(i);
      const consumers = ['flat-a', 'flat-b', 'flat-c'];
      const demand = sum(consumers.map((id) => profiles[id]!(i)));
      for (const id of consumers) {
        const wh = profiles[id]!(i);
        const local = total(flows, bucket.start, 'local', 'debitorId', id);
        expect(local + total(flows, bucket.start, 'grid', 'debitorId', id)).toBe(wh);
        // Within 1 Wh of the demand's proportion of the supply, never above the demand.
        expect(Math.abs(local - (supply >= demand ? wh : (supply * wh) / demand))).toBeLessThan(1);
      }
      for (const id of ['pv', 'roof']) {
        expect(total(flows, bucket.start, 'local', 'creditorId', id) + total(flows, bucket.start, 'feed_in', 'creditorId', id)).toBe(profiles[id]!(i));
      }
      expect(sum(flows.filter((f) => f.at === bucket.start && f.kind === 'local').map((f) => f.wh))).toBe(Math.min(supply, demand));
    });

    const totalOf = (kind: Flow['kind']) => sum(flows.filter((f) => f.kind === kind).map((f) => f.wh));
    const production = sum(buckets.map((_, i) => profiles.pv!(i) + profiles.roof!(i)));
    const consumption = sum(buckets.map((_, i) => profiles['flat-a']!(i) + profiles['flat-b']!(i) + profiles['flat-c']!(i)));
    expect(totalOf('local') + totalOf('feed_in')).toBe(production);
    expect(totalOf('local') + totalOf('grid')).toBe(consumption);
    expect(flows.every((f) => Number.isSafeInteger(f.wh) && f.wh > 0)).toBe(true);
    expect(flows.filter((f) => f.kind === 'grid').every((f) => f.creditorId === GRID)).toBe(true);
    expect(flows.filter((f) => f.kind === 'feed_in').every((f) => f.debitorId === GRID)).toBe(true);
  });

  it('a key changing at local noon on 2026-10-25: priority before, static after', () => {
    const buckets = quarterHoursOf('2026-10-25', '2026-10-26');
    // Noon in Berlin after the clocks went back (UTC+1).
    const noon = Date.parse('2026-10-25T11:00:00Z');
    const keyAt = (instant: number): AllocationKey => (instant < noon ? 'priority' : 'static');
    const energy = new Map([
      ['pv', energyOf(buckets, () => 100)],
      ['flat-a', energyOf(buckets, () => 80)],
      ['flat-b', energyOf(buckets, () => 80)],
    ]);
    const site = [
      participation('pv', 'producer'),
      participation('flat-a', 'consumer', { priority: 1, shareMicros: 250_000 }),
      participation('flat-b', 'consumer', { shareMicros: 500_000 }),
    ];
    const { flows, states } = balanceSite({ buckets, rotation: byQuarterHour, keyAt, participations: site, energy, gridMeterId: GRID });

    expect(states.filter((s) => s.balanced)).toHaveLength(100);
    const before = buckets.filter((b) => b.start < noon);
    const after = buckets.filter((b) => b.start >= noon);
    // 00:00 to 02:00 CEST, the repeated hour, then 02:00 to 12:00 CET.
    expect([before.length, after.length]).toEqual([52, 48]);
    for (const bucket of before) {
      // Priority: flat-a is served first, flat-b gets the rest.
      expect(flows.filter((f) => f.at === bucket.start)).toEqual([
        { at: bucket.start, kind: 'local', debitorId: 'flat-a', creditorId: 'pv', wh: 80 },
        { at: bucket.start, kind: 'local', debitorId: 'flat-b', creditorId: 'pv', wh: 20 },
        { at: bucket.start, kind: 'grid', debitorId: 'flat-b', creditorId: GRID, wh: 60 },
      ]);
    }
    for (const bucket of after) {
      // Static: 25 and 50 of the 100 Wh; the unassigned quarter is fed in.
      expect(flows.filter((f) => f.at === bucket.start)).toEqual([
        { at: bucket.start, kind: 'local', debitorId: 'flat-a', creditorId: 'pv', wh: 25 },
        { at: bucket.start, kind: 'local', debitorId: 'flat-b', creditorId: 'pv', wh: 50 },
        { at: bucket.start, kind: 'grid', debitorId: 'flat-a', creditorId: GRID, wh: 55 },
        { at: bucket.start, kind: 'grid', debitorId: 'flat-b', creditorId: GRID, wh: 30 },
        { at: bucket.start, kind: 'feed_in', debitorId: GRID, creditorId: 'pv', wh: 25 },
      ]);
    }
  });

  it('asks keyAt for each bucket start and balances each quarter hour as allocateInterval does under that key', () => {
    const buckets = quarterHoursOf('2026-03-29', '2026-03-30');
    const keys: AllocationKey[] = ['dynamic', 'static', 'priority'];
    const asked: number[] = [];
    const keyAt = (instant: number): AllocationKey => {
      asked.push(instant);
      return keys[Math.floor(instant / QUARTER_HOUR_MS) % 3]!;
    };
    const energy = new Map(Object.entries(profiles).map(([id, wh]) => [id, energyOf(buckets, wh)]));
    const { flows } = balanceSite({ buckets, rotation: byQuarterHour, keyAt, participations, energy, gridMeterId: GRID });

    expect(asked).toEqual(buckets.map((b) => b.start));
    buckets.forEach((bucket, i) => {
      const expected = allocateInterval({
        key: keys[Math.floor(bucket.start / QUARTER_HOUR_MS) % 3]!,
        rotation: byQuarterHour(bucket),
        producers: ['pv', 'roof'].map((id) => ({ meterId: id, wh: profiles[id]!(i) })),
        consumers: participations.filter((p) => p.direction === 'consumer').map((p) => ({ meterId: p.meterId, wh: profiles[p.meterId]!(i), priority: p.priority, shareMicros: p.shareMicros })),
      });
      expect(flows.filter((f) => f.at === bucket.start && f.kind === 'local').map((f) => [f.creditorId, f.debitorId, f.wh])).toEqual(
        expected.local.map((f) => [f.producerId, f.consumerId, f.wh]),
      );
    });
  });
});

describe('balanceSite with the static key on a monthly site', () => {
  const months = bucketsOf(startOfDay('2026-03-01', ZONE).getTime(), startOfDay('2026-05-01', ZONE).getTime(), 'P1M', ZONE);
  const [march, april] = months as [Bucket, Bucket];
  const monthsSince1970 = (bucket: Bucket) => (bucket.start === march.start ? (2026 - 1970) * 12 + 2 : (2026 - 1970) * 12 + 3);
  const joined = startOfDay('2026-03-16', ZONE).getTime();
  const participations = [
    participation('pv', 'producer'),
    participation('flat-a', 'consumer', { shareMicros: 400_000 }),
    participation('flat-b', 'consumer', { shareMicros: 300_000 }),
    // Joins in the middle of March.
    participation('flat-c', 'consumer', { shareMicros: 300_000, from: joined }),
  ];
  const month = (bucket: Bucket, wh: number, complete = true): BucketEnergy => ({ start: bucket.start, end: bucket.end, wh, complete });
  const energy = new Map([
    ['pv', seriesOf([month(march, 1_000_000_002), month(april, 1_000_000_002)])],
    ['flat-a', seriesOf([month(march, 900_000_000), month(april, 900_000_000)])],
    ['flat-b', seriesOf([month(march, 200_000_000), month(april, 200_000_000)])],
    // Metered only from the 16th: March is incomplete for flat-c.
    ['flat-c', seriesOf([month(march, 150_000_000, false), month(april, 500_000_000)])],
  ]);
  const { flows, states } = balanceSite({ buckets: months, rotation: monthsSince1970, keyAt: () => 'static', participations, energy, gridMeterId: GRID });
  const at = (bucket: Bucket) => flows.filter((f) => f.at === bucket.start);

  it('takes a participant joining mid-month in from the next month, as participation is decided at the bucket start', () => {
    expect(states).toEqual([
      { at: march.start, balanced: true },
      { at: april.start, balanced: true },
    ]);
    expect(at(march).some((f) => f.debitorId === 'flat-c' || f.creditorId === 'flat-c')).toBe(false);
    // flat-c's 0.3 stays unassigned in March: fed in, not passed on. flat-b's 0.3 covers its demand; the
    // rest of it is fed in too. flat-a: 0.4 × 1,000,000,002 = 400,000,000.8, floored (no other fraction to add up with).
    expect(at(march)).toEqual([
      { at: march.start, kind: 'local', debitorId: 'flat-a', creditorId: 'pv', wh: 400_000_000 },
      { at: march.start, kind: 'local', debitorId: 'flat-b', creditorId: 'pv', wh: 200_000_000 },
      { at: march.start, kind: 'grid', debitorId: 'flat-a', creditorId: GRID, wh: 500_000_000 },
      { at: march.start, kind: 'feed_in', debitorId: GRID, creditorId: 'pv', wh: 400_000_002 },
    ]);
    // April: flat-a 400,000,000.8 and flat-c 300,000,000.6 (flat-b's share covers it): the floors drop
    // 1.4 Wh, so one Wh goes to the larger fraction, flat-a's.
    expect(at(april)).toEqual([
      { at: april.start, kind: 'local', debitorId: 'flat-a', creditorId: 'pv', wh: 400_000_001 },
      { at: april.start, kind: 'local', debitorId: 'flat-b', creditorId: 'pv', wh: 200_000_000 },
      { at: april.start, kind: 'local', debitorId: 'flat-c', creditorId: 'pv', wh: 300_000_000 },
      { at: april.start, kind: 'grid', debitorId: 'flat-a', creditorId: GRID, wh: 499_999_999 },
      { at: april.start, kind: 'grid', debitorId: 'flat-c', creditorId: GRID, wh: 200_000_000 },
      { at: april.start, kind: 'feed_in', debitorId: GRID, creditorId: 'pv', wh: 100_000_001 },
    ]);
  });

  it('accounts for every Wh of each month', () => {
    for (const [i, bucket] of months.entries()) {
      const local = sum(at(bucket).filter((f) => f.kind === 'local').map((f) => f.wh));
      expect(local + sum(at(bucket).filter((f) => f.kind === 'feed_in').map((f) => f.wh))).toBe(energy.get('pv')!.wh[i]);
      const active = participations.filter((p) => p.direction === 'consumer' && p.from <= bucket.start);
      expect(local + sum(at(bucket).filter((f) => f.kind === 'grid').map((f) => f.wh))).toBe(sum(active.map((p) => energy.get(p.meterId)!.wh[i]!)));
    }
  });
});
