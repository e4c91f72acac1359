import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALLOCATION_KEYS,
  allocateInterval,
  SHARE_SCALE,
  type AllocationKey,
  type ConsumerInput,
  type IntervalAllocation,
  type IntervalInput,
  type ProducerInput,
} from '../../../core/domain/balancing/allocation.js';

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

const producer = (meterId: string, wh: number): ProducerInput => ({ meterId, wh });
const consumer = (meterId: string, wh: number, extra: Partial<ConsumerInput> = {}): ConsumerInput => ({ meterId, wh, priority: null, shareMicros: null, ...extra });

function localOf(result: IntervalAllocation, consumerId: string): number {
  return sum(result.local.filter((f) => f.consumerId === consumerId).map((f) => f.wh));
}

function suppliedBy(result: IntervalAllocation, producerId: string): number {
  return sum(result.local.filter((f) => f.producerId === producerId).map((f) => f.wh));
}

function gridOf(result: IntervalAllocation, consumerId: string): number {
  return result.grid.find((g) => g.consumerId === consumerId)?.wh ?? 0;
}

function feedInOf(result: IntervalAllocation, producerId: string): number {
  return result.feedIn.find((f) => f.producerId === producerId)?.wh ?? 0;
}

/**
 * Each part is floor(numerator / divisor), or one more only for a remainder above 0 (so within
 * 1 Wh of the exact value), and the extra Wh went to the largest remainders.
 */
function expectLargestRemainder(parts: readonly number[], numerators: readonly bigint[], divisor: bigint): void {
  const withExtra: bigint[] = [];
  const without: bigint[] = [];
  parts.forEach((part, i) => {
    const remainder = numerators[i]! % divisor;
    const extra = BigInt(part) - numerators[i]! / divisor;
    expect(extra === 0n || (extra === 1n && remainder > 0n)).toBe(true);
    (extra === 1n ? withExtra : without).push(remainder);
  });
  for (const taken of withExtra) for (const passed of without) expect(taken >= passed).toBe(true);
}

// Few id characters so that ids share prefixes and sort non-trivially.
const meterId = fc.string({ unit: fc.constantFrom('a', 'b', 'B', '0', '-'), minLength: 1, maxLength: 3 });
// Tiny values make demands, productions and remainders tie; 10^9 takes products past 2^53 (monthly sites).
const quarterWh = fc.oneof({ arbitrary: fc.integer({ min: 0, max: 5_000 }), weight: 3 }, { arbitrary: fc.integer({ min: 0, max: 30 }), weight: 2 });
const monthWh = fc.integer({ min: 0, max: 1_000_000_000 });
const mixedWh = fc.oneof({ arbitrary: quarterWh, weight: 4 }, { arbitrary: monthWh, weight: 1 });
const rotation = fc.oneof(fc.integer(), fc.maxSafeInteger());

/** Static shares in millionths summing to at most SHARE_SCALE: cut points, sometimes topped up to exactly 1, or equal shares (tied remainders); some null. */
function sharesFor(count: number): fc.Arbitrary<Array<number | null>> {
  return fc
    .record({
      mode: fc.constantFrom('cuts', 'full', 'equal'),
      cuts: fc.array(fc.integer({ min: 0, max: SHARE_SCALE }), { minLength: count, maxLength: count }),
      nulls: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: count, maxLength: count }),
    })
    .map(({ mode, cuts, nulls }) => {
      const sorted = [...cuts].sort((a, b) => a - b);
      const shares = mode === 'equal' ? cuts.map(() => Math.floor(SHARE_SCALE / count)) : sorted.map((cut, i) => cut - (i === 0 ? 0 : sorted[i - 1]!));
      if (mode === 'full' && count > 0) shares[count - 1]! += SHARE_SCALE - sorted[count - 1]!;
      return shares.map((share, i) => (nulls[i] === 0 ? null : share));
    });
}

function intervalOf(wh: fc.Arbitrary<number>): fc.Arbitrary<Omit<IntervalInput, 'key'>> {
  return fc
    .record({
      rotation,
      producers: fc.uniqueArray(fc.record({ meterId: meterId.map((id) => `p${id}`), wh }), { minLength: 1, maxLength: 4, selector: (p) => p.meterId }),
      consumers: fc.uniqueArray(fc.record({ meterId: meterId.map((id) => `c${id}`), wh, priority: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }) }), {
        maxLength: 12,
        selector: (c) => c.meterId,
      }),
    })
    .chain((interval) =>
      sharesFor(interval.consumers.length).map((shares) => ({
        ...interval,
        consumers: interval.consumers.map((c, i) => ({ ...c, shareMicros: shares[i]! })),
      })),
    );
}

const interval = fc.oneof(intervalOf(quarterWh), intervalOf(mixedWh), intervalOf(monthWh));

describe('allocation keys: properties', () => {
  it('create and lose nothing, and give no consumer more than its demand, under every key', () => {
    fc.assert(
      fc.property(interval, fc.constantFrom(...ALLOCATION_KEYS), (base, key) => {
        const input: IntervalInput = { ...base, key };
        const result = allocateInterval(input);
        const supply = sum(input.producers.map((p) => p.wh));
        const demand = sum(input.consumers.map((c) => c.wh));
        const local = sum(result.local.map((f) => f.wh));

        for (const row of [...result.local, ...result.grid, ...result.feedIn]) expect(Number.isSafeInteger(row.wh) && row.wh > 0).toBe(true);
        expect(local + sum(result.grid.map((g) => g.wh))).toBe(demand);
        expect(local + sum(result.feedIn.map((f) => f.wh))).toBe(supply);
        for (const c of input.consumers) {
          expect(localOf(result, c.meterId) + gridOf(result, c.meterId)).toBe(c.wh);
          expect(localOf(result, c.meterId)).toBeLessThanOrEqual(c.wh);
        }
        for (const p of input.producers) expect(suppliedBy(result, p.meterId) + feedInOf(result, p.meterId)).toBe(p.wh);
        // Only the static key may feed in while demand is unmet.
        if (key !== 'static') expect(local).toBe(Math.min(supply, demand));
      }),
      { numRuns: 600 },
    );
  });

  it('static: each consumer is within 1 Wh of min(demand, share × supply), and the local total is the floor of their sum', () => {
    fc.assert(
      fc.property(interval, (base) => {
        const result = allocateInterval({ ...base, key: 'static' });
        const supply = BigInt(sum(base.producers.map((p) => p.wh)));
        const scale = BigInt(SHARE_SCALE);
        // In millionths of a Wh, so the comparison is exact.
        const exact = base.consumers.map((c) => min(BigInt(c.wh) * scale, BigInt(c.shareMicros ?? 0) * supply));
        expectLargestRemainder(base.consumers.map((c) => localOf(result, c.meterId)), exact, scale);
        expect(BigInt(sum(result.local.map((f) => f.wh)))).toBe(exact.reduce((a, b) => a + b, 0n) / scale);
      }),
      { numRuns: 600 },
    );
  });

  it('dynamic: each consumer is within 1 Wh of min(demand, supply × demand / total demand)', () => {
    fc.assert(
      fc.property(interval, (base) => {
        const result = allocateInterval({ ...base, key: 'dynamic' });
        const supply = BigInt(sum(base.producers.map((p) => p.wh)));
        const total = BigInt(sum(base.consumers.map((c) => c.wh)));
        const locals = base.consumers.map((c) => localOf(result, c.meterId));
        if (total === 0n) expect(locals.every((wh) => wh === 0)).toBe(true);
        // In units of 1 / total demand Wh.
        else expectLargestRemainder(locals, base.consumers.map((c) => min(BigInt(c.wh) * total, supply * BigInt(c.wh))), total);
      }),
      { numRuns: 600 },
    );
  });

  it('attribute local energy to producers in proportion to their production, by largest remainder, under every key', () => {
    fc.assert(
      fc.property(interval, fc.constantFrom(...ALLOCATION_KEYS), (base, key) => {
        const result = allocateInterval({ ...base, key });
        const local = BigInt(sum(result.local.map((f) => f.wh)));
        const supply = BigInt(sum(base.producers.map((p) => p.wh)));
        const shares = base.producers.map((p) => suppliedBy(result, p.meterId));
        if (supply === 0n) expect(shares.every((wh) => wh === 0)).toBe(true);
        else expectLargestRemainder(shares, base.producers.map((p) => local * BigInt(p.wh)), supply);
      }),
      { numRuns: 600 },
    );
  });

  it('reruns give the same result, whatever the order of producers and consumers', () => {
    const shuffled = <T>(items: T[]) => fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });
    const reordered = interval.chain((base) => fc.tuple(fc.constant(base), shuffled(base.producers), shuffled(base.consumers)));
    fc.assert(
      fc.property(reordered, fc.constantFrom(...ALLOCATION_KEYS), ([base, producers, consumers], key) => {
        const input: IntervalInput = { ...base, key };
        const before = structuredClone(input);
        const result = allocateInterval(input);
        expect(input).toEqual(before);
        expect(allocateInterval(structuredClone(input))).toEqual(result);
        expect(allocateInterval({ ...input, producers, consumers })).toEqual(result);
      }),
      { numRuns: 400 },
    );
  });
});

describe('allocation keys: ties among producers rotate among the tied only', () => {
  /** Local energy per producer over consecutive rotations, one consumer taking `demand` Wh. */
  function attributed(key: AllocationKey, producers: ProducerInput[], demand: number, rotations: readonly number[]): Map<string, number[]> {
    const shares = new Map(producers.map((p) => [p.meterId, [] as number[]]));
    for (const r of rotations) {
      const result = allocateInterval({ key, rotation: r, producers, consumers: [consumer('load', demand, { shareMicros: SHARE_SCALE })] });
      for (const p of producers) shares.get(p.meterId)!.push(suppliedBy(result, p.meterId));
    }
    return shares;
  }

  const consecutive = (start: number, count: number) => Array.from({ length: count }, (_, i) => start + i);

  it.each(ALLOCATION_KEYS)('bug report: a, b, c with 1, 1, 0 Wh and 1 Wh demand give a and b 3 Wh each over rotations 0..5 (%s)', (key) => {
    const shares = attributed(key, [producer('a', 1), producer('b', 1), producer('c', 0)], 1, consecutive(0, 6));
    // Rotating over all three producers, the start on c passed its Wh on to a: 4 / 2.
    expect(sum(shares.get('a')!)).toBe(3);
    expect(sum(shares.get('b')!)).toBe(3);
    expect(sum(shares.get('c')!)).toBe(0);
  });

  // Untied producers at 0 Wh sit between the tied ones in meter-id order, where the old rule went wrong.
  const producerIds = fc.uniqueArray(meterId, { minLength: 2, maxLength: 10 });
  const start = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER - 12 });

  it('t tied producers with 1 extra Wh per interval: t consecutive rotations give each of them the extra exactly once', () => {
    fc.assert(
      fc.property(producerIds, fc.integer({ min: 2, max: 6 }), start, fc.constantFrom(...ALLOCATION_KEYS), (ids, t, first, key) => {
        const tied = ids.slice(0, Math.min(t, ids.length));
        const producers = ids.map((id, i) => producer(id, i < tied.length ? 1 : 0));
        const shares = attributed(key, producers, 1, consecutive(first, tied.length));
        for (const id of tied) expect(sum(shares.get(id)!)).toBe(1);
        for (const id of ids.slice(tied.length)) expect(sum(shares.get(id)!)).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('over any whole round of t intervals with c extra Wh, every tied producer gets exactly c extras', () => {
    fc.assert(
      fc.property(
        producerIds,
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(mixedWh, { minLength: 10, maxLength: 10 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        start,
        fc.constantFrom(...ALLOCATION_KEYS),
        (ids, t, tiedWh, otherWh, fraction, first, key) => {
          const tiedCount = Math.min(t, ids.length);
          const producers = ids.map((id, i) => producer(id, i < tiedCount ? tiedWh : otherWh[i]!));
          const supply = sum(producers.map((p) => p.wh));
          const local = Math.max(1, Math.floor(fraction * supply));
          const remainder = (wh: number) => (BigInt(local) * BigInt(wh)) % BigInt(supply);
          // Another producer with the same remainder would join the tie group.
          fc.pre(producers.slice(tiedCount).every((p) => remainder(p.wh) !== remainder(tiedWh)));
          const base = Number((BigInt(local) * BigInt(tiedWh)) / BigInt(supply));

          const shares = attributed(key, producers, local, consecutive(first, tiedCount));
          const tied = ids.slice(0, tiedCount);
          const extrasPerInterval = consecutive(0, tiedCount).map((r) => sum(tied.map((id) => shares.get(id)![r]! - base)));
          const c = extrasPerInterval[0]!;
          expect(extrasPerInterval).toEqual(extrasPerInterval.map(() => c));
          for (const id of tied) {
            expect(shares.get(id)!.every((wh) => wh === base || wh === base + 1)).toBe(true);
            expect(sum(shares.get(id)!) - tiedCount * base).toBe(c);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('allocation keys: worked examples', () => {
  // The README's quarter hour: shares only count under static, priorities only under priority.
  const readme = {
    producers: [producer('pv', 2000)],
    consumers: [
      consumer('a', 500, { priority: 1, shareMicros: 500_000 }),
      consumer('b', 1000, { shareMicros: 300_000 }),
      consumer('c', 1500, { shareMicros: 200_000 }),
    ],
  };

  it.each<{ name: string; key: AllocationKey; producers: ProducerInput[]; consumers: ConsumerInput[]; expected: IntervalAllocation }>([
    ...ALLOCATION_KEYS.map((key) => ({
      name: 'zero demand: all production is fed in',
      key,
      producers: [producer('pv', 700), producer('roof', 300)],
      consumers: [consumer('a', 0, { shareMicros: 500_000 }), consumer('b', 0, { shareMicros: 500_000 })],
      expected: { local: [], grid: [], feedIn: [{ producerId: 'pv', wh: 700 }, { producerId: 'roof', wh: 300 }] },
    })),
    ...ALLOCATION_KEYS.map((key) => ({
      name: 'zero supply: all demand comes from the grid',
      key,
      producers: [producer('pv', 0)],
      consumers: [consumer('a', 400, { shareMicros: 500_000 }), consumer('b', 600, { shareMicros: 500_000 })],
      expected: { local: [], grid: [{ consumerId: 'a', wh: 400 }, { consumerId: 'b', wh: 600 }], feedIn: [] },
    })),
    {
      name: 'static shares summing to less than 1: the rest is fed in (a null share counts as 0)',
      key: 'static',
      producers: [producer('pv', 1000)],
      consumers: [consumer('a', 1000, { shareMicros: 300_000 }), consumer('b', 1000, { shareMicros: 200_000 }), consumer('c', 500)],
      expected: {
        local: [
          { producerId: 'pv', consumerId: 'a', wh: 300 },
          { producerId: 'pv', consumerId: 'b', wh: 200 },
        ],
        grid: [
          { consumerId: 'a', wh: 700 },
          { consumerId: 'b', wh: 800 },
          { consumerId: 'c', wh: 500 },
        ],
        feedIn: [{ producerId: 'pv', wh: 500 }],
      },
    },
    {
      name: 'static, a consumer capped by its demand: its unused share is fed in, not passed on',
      key: 'static',
      producers: [producer('pv', 1000)],
      consumers: [consumer('a', 100, { shareMicros: 600_000 }), consumer('b', 1000, { shareMicros: 400_000 })],
      expected: {
        local: [
          { producerId: 'pv', consumerId: 'a', wh: 100 },
          { producerId: 'pv', consumerId: 'b', wh: 400 },
        ],
        grid: [{ consumerId: 'b', wh: 600 }],
        feedIn: [{ producerId: 'pv', wh: 500 }],
      },
    },
    {
      name: 'dynamic, supply above demand: every consumer gets its demand',
      key: 'dynamic',
      producers: [producer('pv', 5000)],
      consumers: [consumer('a', 1000), consumer('b', 2000)],
      expected: {
        local: [
          { producerId: 'pv', consumerId: 'a', wh: 1000 },
          { producerId: 'pv', consumerId: 'b', wh: 2000 },
        ],
        grid: [],
        feedIn: [{ producerId: 'pv', wh: 2000 }],
      },
    },
    {
      name: 'dynamic, supply below demand: split in proportion to demand, drawn from producers in meter-id order',
      key: 'dynamic',
      producers: [producer('pv', 600), producer('roof', 400)],
      consumers: [consumer('a', 1000), consumer('b', 3000)],
      expected: {
        local: [
          { producerId: 'pv', consumerId: 'a', wh: 250 },
          { producerId: 'pv', consumerId: 'b', wh: 350 },
          { producerId: 'roof', consumerId: 'b', wh: 400 },
        ],
        grid: [
          { consumerId: 'a', wh: 750 },
          { consumerId: 'b', wh: 2250 },
        ],
        feedIn: [],
      },
    },
    {
      name: "dynamic, monthly values: supply × demand past 2^53 is split exactly (c's remainder beats b's by 2; in floats b's wins)",
      key: 'dynamic',
      producers: [producer('pv', 1_028_774_183)],
      consumers: [consumer('a', 427_038_379), consumer('b', 472_330_270), consumer('c', 472_330_262)],
      expected: {
        local: [
          { producerId: 'pv', consumerId: 'a', wh: 320_278_784 },
          { producerId: 'pv', consumerId: 'b', wh: 354_247_702 },
          { producerId: 'pv', consumerId: 'c', wh: 354_247_697 },
        ],
        grid: [
          { consumerId: 'a', wh: 106_759_595 },
          { consumerId: 'b', wh: 118_082_568 },
          { consumerId: 'c', wh: 118_082_565 },
        ],
        feedIn: [],
      },
    },
    {
      name: 'README quarter hour, priority: A first, then B and C 750 each',
      key: 'priority',
      ...readme,
      expected: {
        local: [
          { producerId: 'pv', consumerId: 'a', wh: 500 },
          { producerId: 'pv', consumerId: 'b', wh: 750 },
          { producerId: 'pv', consumerId: 'c', wh: 750 },
        ],
        grid: [
          { consumerId: 'b', wh: 250 },
          { consumerId: 'c', wh: 750 },
        ],
        feedIn: [],
      },
    },
    {
      name: "README quarter hour, static 0.5 / 0.3 / 0.2: A's unused share is fed in",
      key: 'static',
      ...readme,
      expected: {
        local: [
          { producerId: 'pv', consumerId: 'a', wh: 500 },
          { producerId: 'pv', consumerId: 'b', wh: 600 },
          { producerId: 'pv', consumerId: 'c', wh: 400 },
        ],
        grid: [
          { consumerId: 'b', wh: 400 },
          { consumerId: 'c', wh: 1100 },
        ],
        feedIn: [{ producerId: 'pv', wh: 500 }],
      },
    },
    {
      name: "README quarter hour, dynamic: the fractions' 1 Wh goes to B's larger remainder",
      key: 'dynamic',
      ...readme,
      expected: {
        local: [
          { producerId: 'pv', consumerId: 'a', wh: 333 },
          { producerId: 'pv', consumerId: 'b', wh: 667 },
          { producerId: 'pv', consumerId: 'c', wh: 1000 },
        ],
        grid: [
          { consumerId: 'a', wh: 167 },
          { consumerId: 'b', wh: 333 },
          { consumerId: 'c', wh: 500 },
        ],
        feedIn: [],
      },
    },
  ])('$name ($key)', ({ key, producers, consumers, expected }) => {
    for (const r of [0, 1, 2, -7]) expect(allocateInterval({ key, rotation: r, producers, consumers })).toEqual(expected);
  });
});
