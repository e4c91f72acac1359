import { QUARTER_HOUR_MS } from '../time/buckets.js';

/**
 * Storage layout of quarter-hour values: one row per meter and UTC day holding 96 slots (a UTC
 * day always has 96 quarter hours; local DST days are a matter of reading, not storing).
 */
export const SLOTS_PER_DAY = 96;
const DAY_MS = SLOTS_PER_DAY * QUARTER_HOUR_MS;

export class MeasurementDay {
  accountId!: string;
  meterId!: string;
  /** UTC date YYYY-MM-DD. */
  day!: string;
  /** Wh per slot, null where nothing was sent. */
  values!: (number | null)[];
}

/** A register reading off the quarter-hour grid (readings_inaccurate meters). */
export class SparseReading {
  accountId!: string;
  meterId!: string;
  at!: Date;
  wh!: number;
}

export function dayOf(at: number): string {
  return new Date(at - (at % DAY_MS)).toISOString().slice(0, 10);
}

export function slotOf(at: number): number {
  return (at % DAY_MS) / QUARTER_HOUR_MS;
}

export function instantOf(day: string, slot: number): number {
  return Date.parse(`${day}T00:00:00.000Z`) + slot * QUARTER_HOUR_MS;
}
