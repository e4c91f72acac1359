import type { Direction, Measuring } from '../meters/meter.js';

/** OBIS codes of what a meter sends: registers (x.8.0) or interval energy (x.29.0); 1 import, 2 export. */
export type Obis = '1.8.0' | '2.8.0' | '1.29.0' | '2.29.0';

export function obisOf(meter: { direction: Direction; measuring: Measuring }): Obis {
  const channel = meter.direction === 'consumer' ? '1' : '2';
  return meter.measuring === 'load_profile_accurate' ? (`${channel}.29.0` as Obis) : (`${channel}.8.0` as Obis);
}

/** Accepts `1.8`, `1.8.0`, `1-0:1.8.0` and `1-0:1.8.0*255` for the same code. */
export function normaliseObis(code: string): string {
  const match = /^(?:\d+-\d+:)?(\d+)\.(\d+)(?:\.(\d+))?(?:\*\d+)?$/.exec(code.trim());
  return match ? `${match[1]}.${match[2]}.${match[3] ?? '0'}` : code;
}

export function isRegister(measuring: Measuring): boolean {
  return measuring !== 'load_profile_accurate';
}

/** Meters whose values sit on the 15-minute grid. */
export function onGrid(measuring: Measuring): boolean {
  return measuring !== 'readings_inaccurate';
}
