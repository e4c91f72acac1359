import type { FieldErrorLike } from '../field-error.js';
import { QUARTER_HOUR_MS } from '../time/buckets.js';
import { parseUtcInstant } from '../time/calendar-date.js';
import { kwhToWh, MAX_KWH } from './energy.js';
import { normaliseObis, onGrid, type Obis } from './obis.js';
import type { Measuring } from '../meters/meter.js';

export interface IngestMeter {
  id: string;
  measuring: Measuring;
  obis: Obis;
  startDate: number;
  virtual: boolean;
}

export interface Measurement {
  meterId: string;
  /** Epoch milliseconds. */
  at: number;
  wh: number;
  /** Position in the upload, for errors found later. */
  index: number;
}

const ITEM_KEYS = new Set(['meterId', 'timestamp', 'value', 'obis']);

/** Why `interpolated`, removed from uploads (JSON and CSV alike), is refused. */
export const INTERPOLATED_REMOVED = '"interpolated" was removed; send measured values only.';

/**
 * Checks every item of an upload and lists every problem by index; identical
 * duplicates collapse, two different values for one meter and time are an error.
 * Hand-written for speed: this runs for up to 50,000 items per request.
 */
export function checkMeasurements(
  items: readonly unknown[],
  meters: ReadonlyMap<string, IngestMeter>,
  now: number,
): { measurements: Measurement[]; errors: FieldErrorLike[] } {
  const errors: FieldErrorLike[] = [];
  const seen = new Map<string, Map<number, number>>();
  const measurements: Measurement[] = [];
  items.forEach((item, index) => {
    const fail = (field: string, code: string, message: string) =>
      errors.push({ path: field ? `measurements[${index}].${field}` : `measurements[${index}]`, code, message });
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return fail('', 'invalid_type', 'Expected an object.');
    const { meterId, timestamp, value, obis } = item as Record<string, unknown>;
    const before = errors.length;
    for (const key of Object.keys(item)) {
      if (key === 'interpolated') fail(key, 'field_removed', INTERPOLATED_REMOVED);
      else if (!ITEM_KEYS.has(key)) fail(key, 'unknown_field', `Unknown field "${key}".`);
    }
    const meter = typeof meterId === 'string' ? meters.get(meterId) : undefined;
    if (typeof meterId !== 'string') fail('meterId', meterId === undefined ? 'required' : 'invalid_type', 'Expected a meter id.');
    else if (!meter) fail('meterId', 'reference_not_found', `No meter with id ${meterId}.`);
    else if (meter.virtual) fail('meterId', 'virtual_meter', 'Values of virtual meters are computed, not submitted.');
    const instant = typeof timestamp === 'string' ? parseUtcInstant(timestamp) : null;
    if (instant === null) {
      fail('timestamp', timestamp === undefined ? 'required' : 'invalid_date_time', 'Expected an ISO 8601 UTC timestamp with milliseconds.');
    } else {
      if (instant > now) fail('timestamp', 'in_the_future', 'The timestamp lies in the future.');
      if (meter && !meter.virtual) {
        if (onGrid(meter.measuring) && instant % QUARTER_HOUR_MS !== 0) fail('timestamp', 'off_grid', 'This meter sends values on the quarter hour.');
        if (instant < meter.startDate) fail('timestamp', 'before_meter_start', 'The meter starts later.');
      }
    }
    let wh: number | null = null;
    if (typeof value !== 'number') fail('value', value === undefined ? 'required' : 'invalid_type', 'Expected a number of kWh.');
    else if (!Number.isFinite(value)) fail('value', 'not_finite', 'Expected a finite number.');
    else if (value < 0) fail('value', 'negative_value', 'Energy and register values are not negative.');
    else if (value > MAX_KWH) fail('value', 'out_of_range', `At most ${MAX_KWH} kWh.`);
    else if ((wh = kwhToWh(value)) === null) fail('value', 'too_many_decimals', 'At most 3 decimals (Wh precision).');
    if (obis !== undefined && obis !== null && meter && (typeof obis !== 'string' || normaliseObis(obis) !== meter.obis)) {
      fail('obis', 'obis_mismatch', `This meter sends ${meter.obis}.`);
    }
    if (errors.length > before || wh === null || instant === null) return;
    let ofMeter = seen.get(meterId as string);
    if (!ofMeter) seen.set(meterId as string, (ofMeter = new Map()));
    const earlier = ofMeter.get(instant);
    if (earlier === undefined) {
      ofMeter.set(instant, wh);
      measurements.push({ meterId: meterId as string, at: instant, wh, index });
    } else if (earlier !== wh) {
      fail('value', 'conflicting_duplicate', 'Another item of this request has a different value for this meter and time.');
    }
  });
  return { measurements, errors };
}

/**
 * Register readings never decrease. Given a meter's stored readings around the upload and the
 * new ones, returns the new readings that break the order (the later of each decreasing pair,
 * or the earlier one when the later was stored before).
 */
export function decreasingReadings(stored: readonly { at: number; wh: number }[], uploaded: readonly Measurement[]): Measurement[] {
  const merged = new Map<number, { wh: number; upload?: Measurement }>(stored.map((p) => [p.at, { wh: p.wh }]));
  for (const m of uploaded) merged.set(m.at, { wh: m.wh, upload: m });
  const series = [...merged.entries()].sort(([a], [b]) => a - b).map(([, point]) => point);
  const offending = new Set<Measurement>();
  for (let i = 1; i < series.length; i++) {
    const [previous, current] = [series[i - 1]!, series[i]!];
    if (current.wh >= previous.wh) continue;
    const culprit = current.upload ?? previous.upload;
    if (culprit) offending.add(culprit);
  }
  return [...offending];
}
