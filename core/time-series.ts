import { bucketsOf, isBoundary, MAX_BUCKETS, QUARTER_HOUR_MS, type Bucket, type Interval } from './domain/time/buckets.js';
import { ValidationError, type FieldError } from './errors.js';

/**
 * The buckets of an aggregating query (measurements and balances alike): both ends on bucket
 * boundaries of the account timezone (`range_not_aligned`), at most MAX_BUCKETS (`range_too_large`).
 */
export function queryBuckets(start: number, end: number, interval: Interval, timezone: string): Bucket[] {
  const errors: FieldError[] = [['startDateTime', start] as const, ['endDateTime', end] as const]
    .filter(([, at]) => !isBoundary(at, interval, timezone))
    .map(([path]) => ({ path, code: 'range_not_aligned', message: `Not a ${interval} boundary in ${timezone}.` }));
  if (errors.length > 0) throw new ValidationError(errors);
  // Only quarter hours can make a range too large before its buckets are counted.
  const buckets = interval === 'PT15M' && (end - start) / QUARTER_HOUR_MS > MAX_BUCKETS ? [] : bucketsOf(start, end, interval, timezone);
  if (buckets.length === 0 || buckets.length > MAX_BUCKETS) {
    throw new ValidationError([{ path: 'endDateTime', code: 'range_too_large', message: `At most ${MAX_BUCKETS} buckets per request; use a coarser interval or a shorter range.` }]);
  }
  return buckets;
}
