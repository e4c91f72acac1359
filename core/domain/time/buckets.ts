import { addDays, addMonths, calendarDateOf, offsetMs, startOfDay } from './calendar-date.js';

export const INTERVALS = ['PT15M', 'PT1H', 'P1D', 'P1M', 'P1Y'] as const;
export type Interval = (typeof INTERVALS)[number];

export const QUARTER_HOUR_MS = 15 * 60 * 1000;

/** Time-series reads answer at most this many buckets (a year of quarter hours is 35,040). */
export const MAX_BUCKETS = 40_000;

export interface Bucket {
  /** Epoch milliseconds, half-open [start, end). */
  start: number;
  end: number;
}

const FIXED_MS: Partial<Record<Interval, number>> = { PT15M: QUARTER_HOUR_MS, PT1H: 4 * QUARTER_HOUR_MS };


/** Whether an instant is a boundary of the interval's buckets in the zone. */
export function isBoundary(instant: number, interval: Interval, timeZone: string): boolean {
  const fixed = FIXED_MS[interval];
  if (fixed) return (instant + offsetMs(instant, timeZone)) % fixed === 0;
  const date = calendarDateOf(new Date(instant), timeZone);
  if (startOfDay(date, timeZone).getTime() !== instant) return false;
  if (interval === 'P1D') return true;
  if (interval === 'P1M') return date.endsWith('-01');
  return date.endsWith('-01-01');
}

function nextBoundary(instant: number, interval: Interval, timeZone: string): number {
  // Every zone's offset is a whole number of quarter hours, so each quarter hour is a boundary.
  if (interval === 'PT15M') return instant + QUARTER_HOUR_MS;
  if (interval === 'PT1H') {
    // Usually an hour later; around a half-hour DST shift (Lord Howe) the next local full hour.
    let next = instant + 4 * QUARTER_HOUR_MS;
    if (isBoundary(next, interval, timeZone)) return next;
    for (next = instant + QUARTER_HOUR_MS; !isBoundary(next, interval, timeZone); next += QUARTER_HOUR_MS);
    return next;
  }
  const date = calendarDateOf(new Date(instant), timeZone);
  const next = interval === 'P1D' ? addDays(date, 1) : addMonths(date, interval === 'P1M' ? 1 : 12);
  return startOfDay(next, timeZone).getTime();
}

/**
 * The buckets of `interval` covering [start, end), aligned to the zone's calendar: a day is
 * 00:00 to 00:00 local time (92 or 100 quarter hours on DST days), a month starts on the 1st.
 * `start` and `end` must be boundaries (see isBoundary).
 */
export function bucketsOf(start: number, end: number, interval: Interval, timeZone: string): Bucket[] {
  const buckets: Bucket[] = [];
  for (let at = start; at < end; ) {
    const next = nextBoundary(at, interval, timeZone);
    buckets.push({ start: at, end: next });
    at = next;
  }
  return buckets;
}

/** How many quarter hours a bucket holds (the expected count for `complete`). */
export function quarterHoursIn(bucket: Bucket): number {
  return (bucket.end - bucket.start) / QUARTER_HOUR_MS;
}
