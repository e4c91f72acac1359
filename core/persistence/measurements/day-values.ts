import type { StoredPoint } from '../../measurements/measurements.repository.js';
import { QUARTER_HOUR_MS } from '../../domain/time/buckets.js';

/** Beyond this many digits an integer may exceed 2^53, where only Number() rounds it as a string read would be. */
const EXACT_DIGITS = 15;

/**
 * Appends the values of a day row's `values` column, as PostgreSQL writes a bigint[] as text
 * ("{1200,NULL,-3,...}"), as points of the quarter hours from `base` on, those in [from, to] and not
 * NULL. The text is scanned character by character: slicing out every number and converting it
 * cost three times as much, and a year of a site's meters has millions of them.
 */
export function appendDayValues(text: string, base: number, from: number, to: number, into: StoredPoint[]): void {
  const last = text.length - 1;
  for (let i = 1, slot = 0; i < last; slot++) {
    const first = i;
    let code = text.charCodeAt(i);
    if (code === 78 /* N of NULL */) {
      i += 5;
      continue;
    }
    const negative = code === 45; /* - */
    if (negative) code = text.charCodeAt(++i);
    let value = 0;
    const digits = i;
    while (code >= 48 && code <= 57) {
      value = value * 10 + (code - 48);
      code = text.charCodeAt(++i);
    }
    const at = base + slot * QUARTER_HOUR_MS;
    if (at >= from && at <= to) into.push({ at, wh: i - digits > EXACT_DIGITS ? Number(text.slice(first, i)) : negative ? -value : value });
    i++;
  }
}
