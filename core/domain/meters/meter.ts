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
  /** MaLo-ID of the market location the meter measures; see checkMarketLocationId. Not unique: a meter exchange keeps it. */
  marketLocationId!: string | null;
  /** Zählpunktbezeichnung; see checkMeteringPointId. Not unique either. */
  meteringPointId!: string | null;
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

/** Why an identifier is refused: the shape is wrong, or only its check digit. */
export type IdentifierProblem = 'invalid_format' | 'invalid_check_digit';

/** The shape of a MaLo-ID: 11 digits, the first not 0. */
export const MARKET_LOCATION_ID_PATTERN = /^[1-9][0-9]{10}$/;

/**
 * The check digit of the first ten digits of a MaLo-ID, by the BDEW algorithm: "starting from the
 * left, sum the digits at odd positions 1,3,5,7,9 → a; sum the digits at even positions
 * 2,4,6,8,10 and multiply by 2 → b; check digit = (10 − ((a + b) mod 10)) mod 10".
 */
export function marketLocationCheckDigit(firstTen: string): number {
  let a = 0;
  let b = 0;
  for (let position = 1; position <= 10; position++) {
    const digit = firstTen.charCodeAt(position - 1) - 48;
    if (position % 2 === 1) a += digit;
    else b += digit;
  }
  return (10 - ((a + 2 * b) % 10)) % 10;
}

/**
 * A MaLo-ID (market location id): "11 digits, the 11th a check digit by the BDEW algorithm ... the
 * first digit may not be 0", e.g. 51238696781. Null when valid.
 */
export function checkMarketLocationId(value: string): IdentifierProblem | null {
  if (!MARKET_LOCATION_ID_PATTERN.test(value)) return 'invalid_format';
  return marketLocationCheckDigit(value.slice(0, 10)) === value.charCodeAt(10) - 48 ? null : 'invalid_check_digit';
}

/** A Zählpunktbezeichnung: "33 characters, `DE` followed by 31 upper-case letters or digits". */
export const METERING_POINT_ID_PATTERN = /^DE[A-Z0-9]{31}$/;

/** A Zählpunktbezeichnung (metering point id), e.g. DE0001234567890123456789012345678. Null when valid. */
export function checkMeteringPointId(value: string): 'invalid_format' | null {
  return METERING_POINT_ID_PATTERN.test(value) ? null : 'invalid_format';
}
