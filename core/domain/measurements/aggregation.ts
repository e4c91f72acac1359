import { QUARTER_HOUR_MS, quarterHoursIn, type Bucket } from '../time/buckets.js';

export interface BucketEnergy {
  start: number;
  end: number;
  wh: number;
  /** Every quarter hour of the bucket is known. */
  complete: boolean;
}

/**
 * A meter's energy per bucket as two arrays in the buckets' order: `wh[i]` counts where
 * `complete[i]` is 1. Balancing reads a site-year of quarter hours per meter this way, without an
 * object per quarter hour.
 */
export interface EnergySeries {
  readonly wh: Float64Array;
  readonly complete: Uint8Array;
}

export function seriesOf(energies: readonly BucketEnergy[]): EnergySeries {
  const series = { wh: new Float64Array(energies.length), complete: new Uint8Array(energies.length) };
  energies.forEach(({ wh, complete }, i) => {
    series.wh[i] = wh;
    series.complete[i] = complete ? 1 : 0;
  });
  return series;
}

/**
 * The interval energy of a bucket of whole quarter hours from a series of quarter hours whose first
 * starts at `first`, as sumIntervals gives it: complete when every quarter hour of the bucket is
 * (one outside the series is not).
 */
export function seriesEnergy(series: EnergySeries, first: number, { start, end }: Bucket): BucketEnergy {
  const from = (start - first) / QUARTER_HOUR_MS;
  const to = (end - first) / QUARTER_HOUR_MS;
  let wh = 0;
  let present = 0;
  for (let i = from; i < to; i++) {
    if (series.complete[i] === 1) {
      wh += series.wh[i]!;
      present++;
    }
  }
  return { start, end, wh, complete: present === to - from };
}

/** Interval energy (stamped with the interval's start) summed per bucket. */
export function sumIntervals(values: ReadonlyMap<number, number>, buckets: readonly Bucket[]): BucketEnergy[] {
  return buckets.map(({ start, end }) => {
    let wh = 0;
    let present = 0;
    for (let at = start; at < end; at += QUARTER_HOUR_MS) {
      const value = values.get(at);
      if (value !== undefined) {
        wh += value;
        present++;
      }
    }
    return { start, end, wh, complete: present === quarterHoursIn({ start, end }) };
  });
}

/**
 * Interval energy summed per bucket, like sumIntervals, from points sorted by time (of equal
 * instants the last counts, as in a Map built from them): each bucket's points are found by binary
 * search and walked, instead of looking up every quarter hour of the bucket in a Map.
 */
export function sumSortedIntervals(points: readonly Reading[], buckets: readonly Bucket[]): BucketEnergy[] {
  return buckets.map(({ start, end }) => {
    let wh = 0;
    let present = 0;
    let previous: Reading | undefined;
    for (let i = firstAtOrAfter(points, start); i < points.length && points[i]!.at < end; i++) {
      const point = points[i]!;
      if ((point.at - start) % QUARTER_HOUR_MS !== 0) continue;
      if (previous?.at === point.at) {
        wh += point.wh - previous.wh;
      } else {
        wh += point.wh;
        present++;
      }
      previous = point;
    }
    return { start, end, wh, complete: present === quarterHoursIn({ start, end }) };
  });
}

/** The index of the first reading at or after `at` in readings sorted by time (their length if none). */
function firstAtOrAfter(readings: readonly Reading[], at: number): number {
  let low = 0;
  let high = readings.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (readings[mid]!.at < at) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Quarter-hour energy of a register meter: the difference of the readings at the interval's
 * start and end, where both exist. Stamped with the interval's start like interval values.
 */
export function intervalsFromReadings(readings: ReadonlyMap<number, number>, from: number, to: number): Map<number, number> {
  const intervals = new Map<number, number>();
  for (let at = from; at < to; at += QUARTER_HOUR_MS) {
    const begin = readings.get(at);
    const end = readings.get(at + QUARTER_HOUR_MS);
    if (begin !== undefined && end !== undefined) intervals.set(at, end - begin);
  }
  return intervals;
}

export interface Reading {
  at: number;
  wh: number;
}

/**
 * The register value at an instant: the reading there, or the linear interpolation between the
 * nearest readings before and after when both lie within `maxGapMs`; null otherwise.
 * `readings` are sorted by time.
 */
export function registerAt(readings: readonly Reading[], at: number, maxGapMs: number): number | null {
  const low = firstAtOrAfter(readings, at);
  const after = readings[low];
  if (after?.at === at) return after.wh;
  const before = readings[low - 1];
  if (!before || !after || at - before.at > maxGapMs || after.at - at > maxGapMs) return null;
  return Math.round(before.wh + ((after.wh - before.wh) * (at - before.at)) / (after.at - before.at));
}

/** Energy per bucket from occasional register readings, interpolated at the bucket boundaries. */
export function energyFromSparseReadings(readings: readonly Reading[], buckets: readonly Bucket[], maxGapMs: number): BucketEnergy[] {
  return buckets.map(({ start, end }) => {
    const first = registerAt(readings, start, maxGapMs);
    const last = registerAt(readings, end, maxGapMs);
    const complete = first !== null && last !== null;
    return { start, end, wh: complete ? last - first : 0, complete };
  });
}
