import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intervalsFromReadings, registerAt, seriesEnergy, seriesOf, sumIntervals, sumSortedIntervals } from '../../../core/domain/measurements/aggregation.js';
import { bucketEnergy } from '../../../core/domain/measurements/bucket-energy.js';
import { kwhToWh, whToKwh } from '../../../core/domain/measurements/energy.js';
import { checkMeasurements, decreasingReadings, type IngestMeter } from '../../../core/domain/measurements/ingest.js';
import { normaliseObis } from '../../../core/domain/measurements/obis.js';
import { QUARTER_HOUR_MS } from '../../../core/domain/time/buckets.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

describe('energy units', () => {
  it('turns kWh with up to 3 decimals into exact Wh and back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e15 }), (wh) => {
        expect(kwhToWh(whToKwh(wh))).toBe(wh);
      }),
    );
    expect([kwhToWh(0.001), kwhToWh(1.5), kwhToWh(0.1 + 0.2)]).toEqual([1, 1500, 300]);
    expect([kwhToWh(1.0005), kwhToWh(-1), kwhToWh(Number.NaN), kwhToWh(Infinity)]).toEqual([null, null, null, null]);
  });

  it('reads OBIS codes in their common spellings', () => {
    expect(['1.8', '1.8.0', '1-0:1.8.0', '1-0:1.8.0*255'].map(normaliseObis)).toEqual(['1.8.0', '1.8.0', '1.8.0', '1.8.0']);
  });
});

describe('interval sums from sorted points', () => {
  const FIVE_MINUTES = QUARTER_HOUR_MS / 3;
  /** Points on a five-minute grid (so some lie between quarter hours), sorted, some instants twice. */
  const points = fc
    .array(fc.record({ slot: fc.integer({ min: 0, max: 90 }), wh: fc.integer({ min: -500, max: 50_000 }) }), { maxLength: 200 })
    .map((drawn) => drawn.map(({ slot, wh }) => ({ at: T0 + slot * FIVE_MINUTES, wh })).sort((a, b) => a.at - b.at));
  /** Buckets anywhere on that grid, of any length, overlapping or not, some not whole quarter hours. */
  const buckets = fc.array(
    fc.record({ from: fc.integer({ min: -10, max: 90 }), slots: fc.integer({ min: 1, max: 120 }) }).map(({ from, slots }) => ({ start: T0 + from * FIVE_MINUTES, end: T0 + (from + slots) * FIVE_MINUTES })),
    { minLength: 1, maxLength: 6 },
  );

  it('gives what looking up every quarter hour of each bucket gives (the last of equal instants counting)', () => {
    fc.assert(
      fc.property(points, buckets, (series, ranges) => {
        expect(sumSortedIntervals(series, ranges)).toEqual(sumIntervals(new Map(series.map((p) => [p.at, p.wh])), ranges));
      }),
      { numRuns: 500 },
    );
  });

  it('gives per quarter hour, as arrays, what looking up each quarter hour gives', () => {
    const quarterHours = fc
      .record({ from: fc.integer({ min: -10, max: 40 }), count: fc.integer({ min: 1, max: 40 }) })
      .map(({ from, count }) => Array.from({ length: count }, (_, i) => ({ start: T0 + (from + i) * QUARTER_HOUR_MS, end: T0 + (from + i + 1) * QUARTER_HOUR_MS })));
    fc.assert(
      fc.property(points, fc.oneof(quarterHours, buckets), (series, ranges) => {
        const expected = seriesOf(sumIntervals(new Map(series.map((p) => [p.at, p.wh])), ranges));
        expect(seriesOf(bucketEnergy('load_profile_accurate', series, ranges))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('gives for a bucket of whole quarter hours from a series of quarter hours (what invoices read) what bucketEnergy gives', () => {
    const wholeQuarterHours = fc
      .record({ from: fc.integer({ min: -5, max: 40 }), count: fc.integer({ min: 1, max: 40 }) })
      .map(({ from, count }) => ({ start: T0 + from * QUARTER_HOUR_MS, end: T0 + (from + count) * QUARTER_HOUR_MS }));
    fc.assert(
      fc.property(points, fc.integer({ min: -5, max: 20 }), fc.integer({ min: 1, max: 40 }), wholeQuarterHours, (series, firstSlot, count, bucket) => {
        const first = T0 + firstSlot * QUARTER_HOUR_MS;
        const inSeries = series.filter((p) => p.at >= first && p.at < first + count * QUARTER_HOUR_MS);
        const stored = seriesOf(bucketEnergy('load_profile_accurate', inSeries, Array.from({ length: count }, (_, i) => ({ start: first + i * QUARTER_HOUR_MS, end: first + (i + 1) * QUARTER_HOUR_MS }))));
        expect(seriesEnergy(stored, first, bucket)).toEqual(bucketEnergy('load_profile_accurate', inSeries, [bucket])[0]);
      }),
      { numRuns: 500 },
    );
  });

  it('is what bucketEnergy answers for interval meters on buckets longer than a quarter hour', () => {
    const day = { start: T0, end: T0 + 96 * QUARTER_HOUR_MS };
    const full = Array.from({ length: 96 }, (_, i) => ({ at: T0 + i * QUARTER_HOUR_MS, wh: i }));
    expect(bucketEnergy('load_profile_accurate', full, [day])).toEqual([{ ...day, wh: (95 * 96) / 2, complete: true }]);
    expect(bucketEnergy('load_profile_accurate', full.slice(1), [day])).toEqual([{ ...day, wh: (95 * 96) / 2, complete: false }]);
    expect(bucketEnergy('load_profile_accurate', [...full, { at: T0 + 5 * 60_000, wh: 1_000 }].sort((a, b) => a.at - b.at), [day])[0]!.wh).toBe((95 * 96) / 2);
  });
});

describe('readings to intervals', () => {
  const readings = fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 2, maxLength: 200 }).map((steps) => {
    let register = 1_000_000;
    return steps.map((step, i) => ({ at: T0 + i * QUARTER_HOUR_MS, wh: (register += step) }));
  });

  it('sums the intervals of a complete series to the difference of the registers at its ends', () => {
    fc.assert(
      fc.property(readings, (series) => {
        const map = new Map(series.map((r) => [r.at, r.wh]));
        const end = series.at(-1)!.at;
        const intervals = intervalsFromReadings(map, T0, end);
        const [bucket] = sumIntervals(intervals, [{ start: T0, end }]);
        expect(bucket).toEqual({ start: T0, end, wh: series.at(-1)!.wh - series[0]!.wh, complete: true });
      }),
    );
  });

  it('marks a bucket incomplete when a reading is missing and never invents energy', () => {
    fc.assert(
      fc.property(readings, fc.nat(), (series, hole) => {
        fc.pre(series.length > 2);
        const gone = 1 + (hole % (series.length - 2));
        const map = new Map(series.filter((_, i) => i !== gone).map((r) => [r.at, r.wh]));
        const end = series.at(-1)!.at;
        const [bucket] = sumIntervals(intervalsFromReadings(map, T0, end), [{ start: T0, end }]);
        expect(bucket!.complete).toBe(false);
        expect(bucket!.wh).toBeLessThanOrEqual(series.at(-1)!.wh - series[0]!.wh);
      }),
    );
  });

  it('interpolates registers linearly only within the allowed gap', () => {
    const sparse = [
      { at: 0, wh: 100 },
      { at: 100, wh: 200 },
    ];
    expect([registerAt(sparse, 0, 10), registerAt(sparse, 25, 100), registerAt(sparse, 25, 50), registerAt(sparse, 150, 100)]).toEqual([100, 125, null, null]);
  });
});

describe('upload checks', () => {
  const meter: IngestMeter = { id: 'm', measuring: 'readings_accurate', obis: '1.8.0', startDate: T0, virtual: false };
  const meters = new Map([['m', meter]]);

  it('collapses identical duplicates and keeps the upload order as index', () => {
    const item = { meterId: 'm', timestamp: '2026-01-01T00:15:00.000Z', value: 1 };
    const { measurements, errors } = checkMeasurements([item, item], meters, T0 + 10 * QUARTER_HOUR_MS);
    expect(errors).toEqual([]);
    expect(measurements).toEqual([{ meterId: 'm', at: T0 + QUARTER_HOUR_MS, wh: 1000, index: 0 }]);
  });

  it('blames the uploaded reading that breaks the order', () => {
    const stored = [
      { at: 0, wh: 10 },
      { at: 2, wh: 30 },
    ];
    const upload = { meterId: 'm', at: 1, wh: 40, index: 3 };
    expect(decreasingReadings(stored, [upload])).toEqual([upload]);
    expect(decreasingReadings(stored, [{ ...upload, wh: 20 }])).toEqual([]);
  });
});

describe('the hand-written upload check agrees with the documented zod schema', () => {
  const METER = '0d7f4c1e-9a51-4d1e-8c59-2b4f0a6e9c11';
  const meters = new Map([[METER, { id: METER, measuring: 'load_profile_accurate' as const, obis: '1.29.0' as const, startDate: 0, virtual: false }]]);
  const field = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer(), fc.string(), fc.boolean()) });
  const item = fc.record(
    {
      meterId: field(fc.constant(METER)),
      timestamp: field(
        fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 9 })).map(([n, variant]) => {
          const iso = new Date(T0 + n * QUARTER_HOUR_MS).toISOString();
          return variant === 0 ? iso.replace('.000Z', 'Z') : variant === 1 ? iso.replace('T', ' ') : iso;
        }),
      ),
      value: field(fc.integer({ min: 0, max: 1e9 }).map((wh) => wh / 1000)),
      obis: fc.option(fc.constantFrom('1.29.0', 'x', 7), { nil: undefined }),
      extra: fc.option(fc.constant(1), { nil: undefined, freq: 10 }),
    },
    { requiredKeys: [] },
  );

  it('accepts and rejects the same items', async () => {
    const { ingestCommand } = await import('../../../core/measurements/measurements.commands.js');
    fc.assert(
      fc.property(item, (raw) => {
        const candidate = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
        const byZod = ingestCommand.safeParse({ measurements: [candidate] }).success;
        const byHand = checkMeasurements([candidate], meters, Number.MAX_SAFE_INTEGER).errors.length === 0;
        // The business rules (obis of the meter) are the hand check's own; align the oracle on them.
        const obisOk = candidate.obis === undefined || candidate.obis === '1.29.0';
        expect(byHand).toBe(byZod && obisOk);
      }),
      { numRuns: 2000 },
    );
  });
});
