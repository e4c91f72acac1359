import type { StoredPoint } from '../../measurements/measurements.repository.js';
import type { EnergySeries } from '../../domain/measurements/aggregation.js';
import { QUARTER_HOUR_MS } from '../../domain/time/buckets.js';

/** Beyond this many digits an integer may exceed 2^53, where only Number() rounds it as a string read would be. */
const EXACT_DIGITS = 15;

/** Slots of a day row: 96 quarter hours of a UTC day, and room for more. */
const SLOTS = 128;
const slotValues = new Float64Array(SLOTS);
const slotPresent = new Uint8Array(SLOTS);

/**
 * Reads a day row's `values` column, as PostgreSQL writes a bigint[] as text ("{1200,NULL,-3,...}"),
 * into `slotValues` and `slotPresent` (NULL: 0); answers the number of slots. The text is scanned
 * character by character: slicing out every number and converting it cost three times as much, and
 * a year of a site's meters has millions of them.
 */
function readDayValues(text: string): number {
  const last = text.length - 1;
  let slot = 0;
  for (let i = 1; i < last && slot < SLOTS; slot++) {
    const first = i;
    let code = text.charCodeAt(i);
    if (code === 78 /* N of NULL */) {
      slotPresent[slot] = 0;
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
    slotValues[slot] = i - digits > EXACT_DIGITS ? Number(text.slice(first, i)) : negative ? -value : value;
    slotPresent[slot] = 1;
    i++;
  }
  return slot;
}

/**
 * Appends the values of a day row (its `values` column as text) as points of the quarter hours from
 * `base` on, those in [from, to] and not NULL.
 */
export function appendDayValues(text: string, base: number, from: number, to: number, into: StoredPoint[]): void {
  const slots = readDayValues(text);
  for (let slot = 0; slot < slots; slot++) {
    const at = base + slot * QUARTER_HOUR_MS;
    if (slotPresent[slot] === 1 && at >= from && at <= to) into.push({ at, wh: slotValues[slot]! });
  }
}

/**
 * Puts the values of a day row (its `values` column as text), whose first quarter hour is `base`,
 * into a series of consecutive quarter hours from `first` on: a value at its index, marked complete;
 * NULLs and quarter hours outside the series leave it as it is.
 */
export function putDayValues(text: string, base: number, first: number, into: EnergySeries): void {
  const slots = readDayValues(text);
  const offset = (base - first) / QUARTER_HOUR_MS;
  const length = into.wh.length;
  for (let slot = 0; slot < slots; slot++) {
    const index = offset + slot;
    if (slotPresent[slot] === 1 && index >= 0 && index < length) {
      into.wh[index] = slotValues[slot]!;
      into.complete[index] = 1;
    }
  }
}
