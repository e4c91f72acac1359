import type { Measuring } from '../meters/meter.js';
import { QUARTER_HOUR_MS, type Bucket } from '../time/buckets.js';
import { energyFromSparseReadings, intervalsFromReadings, sumIntervals, sumSortedIntervals, type BucketEnergy, type Reading } from './aggregation.js';

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
  return buckets.every((b) => b.end - b.start === QUARTER_HOUR_MS) ? quarterHours(points, buckets) : sumSortedIntervals(points, buckets);
}

/** The hot path of balancing: interval values on quarter-hour buckets, by index instead of lookup. */
function quarterHours(points: readonly Reading[], buckets: readonly Bucket[]): BucketEnergy[] {
  const first = buckets[0]!.start;
  const energies: BucketEnergy[] = buckets.map(({ start, end }) => ({ start, end, wh: 0, complete: false }));
  for (const { at, wh } of points) {
    const index = (at - first) / QUARTER_HOUR_MS;
    const energy = energies[index];
    if (energy && energy.start === at) {
      energy.wh = wh;
      energy.complete = true;
    }
  }
  return energies;
}
