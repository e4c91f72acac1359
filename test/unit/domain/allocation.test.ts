import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateInterval,
  proportionalSplit,
  shareSupply,
  type ConsumerInput,
  type IntervalAllocation,
  type IntervalInput,
  type ProducerInput,
} from '../../../core/domain/balancing/allocation.js';

const producer = (meterId: string, wh: number): ProducerInput => ({ meterId, wh });
const consumer = (meterId: string, wh: number, priority: number | null = null): ConsumerInput => ({ meterId, wh, priority, shareMicros: null });
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** Local energy per consumer id, from the flows. */
function localOf(result: IntervalAllocation, consumerId: string): number {
  return sum(result.local.filter((f) => f.consumerId === consumerId).map((f) => f.wh));
}

function gridOf(result: IntervalAllocation, consumerId: string): number {
  return result.grid.find((g) => g.consumerId === consumerId)?.wh ?? 0;
}

function feedInOf(result: IntervalAllocation, producerId: string): number {
  return result.feedIn.find((f) => f.producerId === producerId)?.wh ?? 0;
}

// Few id characters so that ids collide in prefixes and sort non-trivially.
const meterId = fc.string({ unit: fc.constantFrom('a', 'b', 'B', '0', '-'), minLength: 1, maxLength: 4 });
// Small values too, so that demands tie with each other and with the fill level.
const wh = fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 30 }));
const intervalInput: fc.Arbitrary<IntervalInput> = fc.record({
  rotation: fc.nat(),
  key: fc.constant('priority' as const),
  producers: fc.uniqueArray(fc.record({ meterId, wh }), { maxLength: 6, selector: (p) => p.meterId }),
  consumers: fc.uniqueArray(fc.record({ meterId, wh, priority: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }), shareMicros: fc.constant(null) }), {
    maxLength: 12,
    selector: (c) => c.meterId,
  }),
});

/** Tier rank: ascending priority, null last. */
const tierRank = (priority: number | null) => priority ?? Number.POSITIVE_INFINITY;

describe('allocateInterval rules', () => {
  it('(a) single producer, single consumer: short supply goes local and the rest comes from the grid', () => {
    expect(allocateInterval({ key: 'priority', rotation: 0, producers: [producer('p', 300)], consumers: [consumer('c', 500)] })).toEqual({
      local: [{ producerId: 'p', consumerId: 'c', wh: 300 }],
      grid: [{ consumerId: 'c', wh: 200 }],
      feedIn: [],
    });
  });

  it('(a) single producer, single consumer: surplus is fed in', () => {
    expect(allocateInterval({ key: 'priority', rotation: 0, producers: [producer('p', 500)], consumers: [consumer('c', 300)] })).toEqual({
      local: [{ producerId: 'p', consumerId: 'c', wh: 300 }],
      grid: [],
      feedIn: [{ producerId: 'p', wh: 200 }],
    });
  });

  it('(b) a higher tier is satisfied first; the null tier gets nothing while tier 1 is short', () => {
    const result = allocateInterval({
      key: 'priority',
      rotation: 0,
      producers: [producer('p', 150)],
      consumers: [consumer('last', 100, null), consumer('second', 100, 2), consumer('first', 100, 1)],
    });
    expect(localOf(result, 'first')).toBe(100);
    expect(localOf(result, 'second')).toBe(50);
    expect(localOf(result, 'last')).toBe(0);
    expect(result.grid).toEqual([
      { consumerId: 'last', wh: 100 },
      { consumerId: 'second', wh: 50 },
    ]);

    expect(shareSupply(80, [consumer('n', 100, null), consumer('t1', 100, 1)], 0)).toEqual([0, 80]);
  });

  it('(c) splits equally within a tier and passes on what a small consumer cannot take', () => {
    expect(shareSupply(100, [consumer('a', 10, 0), consumer('b', 100, 0), consumer('c', 100, 0)], 0)).toEqual([10, 45, 45]);
    expect(shareSupply(100, [consumer('b', 100), consumer('c', 100), consumer('a', 10)], 7)).toEqual([45, 45, 10]);
    // A demand equal to the fill level is met in full and never receives a remainder Wh.
    expect(shareSupply(10, [consumer('a', 3), consumer('b', 100), consumer('c', 100)], 0)).toEqual([3, 4, 3]);
  });

  it('(d) rotates the remainder over the meterId order', () => {
    const consumers = [consumer('c', 1000), consumer('a', 1000), consumer('b', 1000)];
    expect(shareSupply(10, consumers, 0)).toEqual([3, 4, 3]); // 'a' first in id order
    expect(shareSupply(10, consumers, 1)).toEqual([3, 3, 4]); // then 'b'
    expect(shareSupply(10, consumers, 2)).toEqual([4, 3, 3]); // then 'c'
    expect(shareSupply(10, consumers, 3)).toEqual([3, 4, 3]); // and round again
    expect(shareSupply(11, consumers, 2)).toEqual([4, 4, 3]); // 'c' and, wrapping, 'a'
  });

  it('(e) attributes local energy to producers in proportion, then by the north-west corner rule', () => {
    const input: IntervalInput = {
      key: 'priority',
      rotation: 0,
      producers: [producer('p2', 100), producer('p1', 300)],
      consumers: [consumer('c2', 80), consumer('c1', 120)],
    };
    expect(proportionalSplit(200, [300, 100], 0)).toEqual([150, 50]);
    expect(allocateInterval(input)).toEqual({
      local: [
        { producerId: 'p1', consumerId: 'c1', wh: 120 },
        { producerId: 'p1', consumerId: 'c2', wh: 30 },
        { producerId: 'p2', consumerId: 'c2', wh: 50 },
      ],
      grid: [],
      feedIn: [
        { producerId: 'p1', wh: 150 },
        { producerId: 'p2', wh: 50 },
      ],
    });
  });

  it('(f) handles zero supply, zero demand, no producers and no consumers', () => {
    expect(allocateInterval({ key: 'priority', rotation: 5, producers: [producer('p', 0)], consumers: [consumer('c', 40)] })).toEqual({
      local: [],
      grid: [{ consumerId: 'c', wh: 40 }],
      feedIn: [],
    });
    expect(allocateInterval({ key: 'priority', rotation: 5, producers: [producer('p', 40)], consumers: [consumer('c', 0)] })).toEqual({
      local: [],
      grid: [],
      feedIn: [{ producerId: 'p', wh: 40 }],
    });
    expect(allocateInterval({ key: 'priority', rotation: 5, producers: [], consumers: [consumer('c', 40)] })).toEqual({
      local: [],
      grid: [{ consumerId: 'c', wh: 40 }],
      feedIn: [],
    });
    expect(allocateInterval({ key: 'priority', rotation: 5, producers: [producer('p', 40)], consumers: [] })).toEqual({
      local: [],
      grid: [],
      feedIn: [{ producerId: 'p', wh: 40 }],
    });
    expect(allocateInterval({ key: 'priority', rotation: 5, producers: [], consumers: [] })).toEqual({ local: [], grid: [], feedIn: [] });
  });

  it('rejects negative or fractional energies', () => {
    expect(() => allocateInterval({ key: 'priority', rotation: 0, producers: [producer('p', -1)], consumers: [] })).toThrow(RangeError);
    expect(() => shareSupply(10, [consumer('c', 1.5)], 0)).toThrow(RangeError);
  });
});

describe('proportionalSplit', () => {
  it('rotates ties and handles zero weights', () => {
    expect(proportionalSplit(1, [1, 1, 1], 0)).toEqual([1, 0, 0]);
    expect(proportionalSplit(1, [1, 1, 1], 2)).toEqual([0, 0, 1]);
    expect(proportionalSplit(2, [1, 1, 1], 2)).toEqual([1, 0, 1]);
    expect(proportionalSplit(0, [0, 0], 0)).toEqual([0, 0]);
    expect(proportionalSplit(0, [], 0)).toEqual([]);
    expect(() => proportionalSplit(1, [0, 0], 0)).toThrow(RangeError);
  });

  it('stays exact when total × weight exceeds 2^53', () => {
    expect(proportionalSplit(3_000_000_001, [1_000_000_000, 1_000_000_000, 1_000_000_001], 0)).toEqual([
      1_000_000_000, 1_000_000_000, 1_000_000_001,
    ]);
  });

  it('sums to the total and each part is within 1 Wh of the exact share', () => {
    fc.assert(
      fc.property(fc.array(wh, { maxLength: 8 }), fc.nat(), fc.nat(), (weights, seed, rotation) => {
        const weightSum = sum(weights);
        const total = weightSum === 0 ? 0 : seed % (2 * weightSum + 1);
        const parts = proportionalSplit(total, weights, rotation);
        expect(sum(parts)).toBe(total);
        parts.forEach((part, i) => {
          expect(Number.isInteger(part)).toBe(true);
          if (weightSum > 0) expect(Math.abs(part - (total * weights[i]!) / weightSum)).toBeLessThan(1);
          else expect(part).toBe(0);
        });
      }),
    );
  });
});

describe('allocateInterval properties', () => {
  it('never allocates more than supply or demand, and grid covers the rest', () => {
    fc.assert(
      fc.property(intervalInput, (input) => {
        const result = allocateInterval(input);
        const supply = sum(input.producers.map((p) => p.wh));
        expect(sum(result.local.map((f) => f.wh))).toBeLessThanOrEqual(supply);
        for (const c of input.consumers) {
          const local = localOf(result, c.meterId);
          expect(local).toBeLessThanOrEqual(c.wh);
          expect(local + gridOf(result, c.meterId)).toBe(c.wh);
        }
      }),
    );
  });

  it("accounts for every producer's production as local flows plus feed-in", () => {
    fc.assert(
      fc.property(intervalInput, (input) => {
        const result = allocateInterval(input);
        for (const p of input.producers) {
          const flows = sum(result.local.filter((f) => f.producerId === p.meterId).map((f) => f.wh));
          expect(flows + feedInOf(result, p.meterId)).toBe(p.wh);
        }
      }),
    );
  });

  it('neither creates nor loses energy', () => {
    fc.assert(
      fc.property(intervalInput, (input) => {
        const result = allocateInterval(input);
        const supply = sum(input.producers.map((p) => p.wh));
        const demand = sum(input.consumers.map((c) => c.wh));
        const local = sum(result.local.map((f) => f.wh));
        expect(local).toBe(Math.min(supply, demand));
        expect(local + sum(result.feedIn.map((f) => f.wh))).toBe(supply);
        expect(local + sum(result.grid.map((g) => g.wh))).toBe(demand);
        expect(result.local.every((f) => f.wh > 0)).toBe(true);
      }),
    );
  });

  it('serves a later tier only once every earlier tier is satisfied', () => {
    fc.assert(
      fc.property(intervalInput, (input) => {
        const result = allocateInterval(input);
        for (const short of input.consumers.filter((c) => localOf(result, c.meterId) < c.wh)) {
          for (const later of input.consumers.filter((c) => tierRank(c.priority) > tierRank(short.priority))) {
            expect(localOf(result, later.meterId)).toBe(0);
          }
        }
      }),
    );
  });

  it('splits equally within a tier (water-filling)', () => {
    fc.assert(
      fc.property(intervalInput, (input) => {
        const result = allocateInterval(input);
        for (const a of input.consumers) {
          for (const b of input.consumers.filter((c) => c.priority === a.priority)) {
            const localA = localOf(result, a.meterId);
            const localB = localOf(result, b.meterId);
            if (localA < a.wh && localB < b.wh) expect(Math.abs(localA - localB)).toBeLessThanOrEqual(1);
            // A satisfied consumer never got more than an unsatisfied one of the same tier, but for
            // the rotating remainder Wh (demand 4 of a 10 Wh split among three is met by 3 + 1).
            if (localA === a.wh && localB < b.wh) expect(localA).toBeLessThanOrEqual(localB + 1);
          }
        }
      }),
    );
  });

  it('is deterministic regardless of input order and does not mutate its input', () => {
    const withShuffles = intervalInput.chain((input) =>
      fc.tuple(
        fc.constant(input),
        fc.shuffledSubarray(input.producers, { minLength: input.producers.length }),
        fc.shuffledSubarray(input.consumers, { minLength: input.consumers.length }),
      ),
    );
    fc.assert(
      fc.property(withShuffles, ([input, producers, consumers]) => {
        const frozen = { ...input, producers: Object.freeze([...input.producers]), consumers: Object.freeze([...input.consumers]) };
        expect(allocateInterval({ ...input, producers, consumers })).toEqual(allocateInterval(frozen as IntervalInput));
      }),
    );
  });
});

describe('remainder Wh and satisfied consumers', () => {
  it('may complete a small demand with the rotating remainder Wh', () => {
    expect(shareSupply(10, [consumer('a', 4), consumer('b', 100), consumer('c', 100)], 0)).toEqual([4, 3, 3]);
    expect(shareSupply(10, [consumer('a', 4), consumer('b', 100), consumer('c', 100)], 1)).toEqual([3, 4, 3]);
  });
});
