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

export interface DayRow {
  meterId: string;
  day: string;
  values: (number | null)[];
}

/** Quarter-hour values as day rows: one per meter and UTC day, null in the slots not given. */
export function dayRows(points: readonly { meterId: string; at: number; wh: number }[]): DayRow[] {
  const rows = new Map<string, DayRow>();
  let row: DayRow | undefined;
  let rowStart = NaN;
  for (const { meterId, at, wh } of points) {
    const start = at - (at % DAY_MS);
    // Uploads come meter by meter and day by day: most values belong to the row of the one before.
    if (row === undefined || start !== rowStart || row.meterId !== meterId) {
      const day = dayOf(start);
      const key = `${meterId}/${day}`;
      row = rows.get(key);
      if (!row) rows.set(key, (row = { meterId, day, values: new Array<number | null>(SLOTS_PER_DAY).fill(null) }));
      rowStart = start;
    }
    row.values[slotOf(at)] = wh;
  }
  return [...rows.values()];
}
