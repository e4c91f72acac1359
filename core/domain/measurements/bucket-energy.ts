import type { Measuring } from '../meters/meter.js';
import { QUARTER_HOUR_MS, type Bucket } from '../time/buckets.js';
import { energyFromSparseReadings, intervalsFromReadings, sumIntervals, sumSortedIntervals, type BucketEnergy, type EnergySeries, type Reading } from './aggregation.js';

/** Occasional readings are interpolated across at most this gap. */
export const MAX_INTERPOLATION_GAP_MS = 48 * 3600 * 1000;

/** The stored points a meter's energy over [start, end) depends on (inclusive bounds). */
export function loadWindow(measuring: Measuring, start: number, end: number): { from: number; to: number } {
  if (measuring === 'readings_inaccurate') return { from: start - MAX_INTERPOLATION_GAP_MS, to: end + MAX_INTERPOLATION_GAP_MS };
  if (measuring === 'readings_accurate') return { from: start, to: end };
  return { from: start, to: end - QUARTER_HOUR_MS };
}

/**
 * A meter's energy per bucket from its stored points (sorted): interval values summed, register
 * readings differenced (quarter-hourly) or interpolated at the boundaries (occasional readings).
 */
export function bucketEnergy(measuring: Measuring, points: readonly Reading[], buckets: readonly Bucket[]): BucketEnergy[] {
  if (buckets.length === 0) return [];
  if (measuring === 'readings_inaccurate') return energyFromSparseReadings(points, buckets, MAX_INTERPOLATION_GAP_MS);
  if (measuring === 'readings_accurate') {
    return sumIntervals(intervalsFromReadings(new Map(points.map((p) => [p.at, p.wh])), buckets[0]!.start, buckets.at(-1)!.end), buckets);
  }
  if (!consecutiveQuarterHours(buckets)) return sumSortedIntervals(points, buckets);
  const { wh, complete } = quarterHours(points, buckets);
  return buckets.map(({ start, end }, i) => ({ start, end, wh: wh[i]!, complete: complete[i] === 1 }));
}

/**
 * Whether a meter's energy on these buckets is its stored quarter-hour values as they are: interval
 * values (not register readings) on consecutive quarter hours, as balancing's chunks are. A stored
 * value counts for its quarter hour, and a quarter hour without one is incomplete.
 */
export function energyIsStoredQuarterHours(measuring: Measuring, buckets: readonly Bucket[]): boolean {
  return measuresIntervals(measuring) && consecutiveQuarterHours(buckets);
}

/** Whether a meter's stored values are its energy per quarter hour (interval values), not register readings. */
export const measuresIntervals = (measuring: Measuring): boolean => measuring !== 'readings_inaccurate' && measuring !== 'readings_accurate';

/** Per list of buckets, whether they are consecutive quarter hours: balancing asks for every meter of a chunk. */
const consecutive = new WeakMap<readonly Bucket[], boolean>();

/** Quarter hours one after another, as balancing's chunks are: a point's bucket is then found by its index. */
function consecutiveQuarterHours(buckets: readonly Bucket[]): boolean {
  let known = consecutive.get(buckets);
  if (known === undefined) {
    known = buckets.length > 0 && buckets.every((b, i) => b.start === buckets[0]!.start + i * QUARTER_HOUR_MS && b.end - b.start === QUARTER_HOUR_MS);
    consecutive.set(buckets, known);
  }
  return known;
}

/** Interval values on consecutive quarter hours (a quarter-hourly series), by index instead of lookup. */
function quarterHours(points: readonly Reading[], buckets: readonly Bucket[]): EnergySeries {
  const first = buckets[0]!.start;
  const series = { wh: new Float64Array(buckets.length), complete: new Uint8Array(buckets.length) };
  for (const { at, wh } of points) {
    const index = (at - first) / QUARTER_HOUR_MS;
    if (buckets[index]?.start === at) {
      series.wh[index] = wh;
      series.complete[index] = 1;
    }
  }
  return series;
}
