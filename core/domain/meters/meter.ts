import type { FormulaComponent } from './formula.js';

export const DIRECTIONS = ['consumer', 'producer'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** How a meter reports: interval energy, 15-minute registers, or occasional registers. */
export const MEASURING = ['load_profile_accurate', 'readings_accurate', 'readings_inaccurate'] as const;
export type Measuring = (typeof MEASURING)[number];

export class Meter {
  id!: string;
  accountId!: string;
  siteId!: string;
  mpoId!: string | null;
  direction!: Direction;
  identifier!: string;
  serial!: string | null;
  startDate!: Date;
  measuring!: Measuring;
  /** Virtual meters only: this meter stands for the site's grid connection. */
  grid!: boolean;
  /** Present exactly on virtual meters. */
  formula!: FormulaComponent[] | null;
  customAttributes!: Record<string, unknown>;
  createdAt!: Date;
  updatedAt!: Date;
}

export function isVirtual(meter: Pick<Meter, 'formula'>): boolean {
  return meter.formula !== null;
}
