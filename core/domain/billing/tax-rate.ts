import { periodsOverlap } from '../periods.js';

export class TaxRate {
  id!: string;
  accountId!: string;
  /** Rates with one name form a history without overlaps. */
  name!: string;
  /** Hundredths of a per cent: 19.00 % is 1900. */
  percentage!: number;
  /** [validFrom, validUntil) in the account timezone; null = open. */
  validFrom!: string;
  validUntil!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export interface RateSegment {
  rate: TaxRate;
  from: string;
  to: string;
}

/** The first other rate of the same history sharing a day with `rate`. */
export function overlappingRate(rate: Pick<TaxRate, 'id' | 'validFrom' | 'validUntil'>, history: readonly TaxRate[]): TaxRate | undefined {
  return history.find(
    (other) => other.id !== rate.id && periodsOverlap({ startDate: rate.validFrom, endDate: rate.validUntil }, { startDate: other.validFrom, endDate: other.validUntil }),
  );
}

/**
 * The rates of one history in force over [from, to), split where the rate changes; days without
 * a rate are left out (the caller reports them).
 */
export function ratesInForce(history: readonly TaxRate[], from: string, to: string): RateSegment[] {
  return [...history]
    .sort((a, b) => (a.validFrom < b.validFrom ? -1 : 1))
    .flatMap((rate) => {
      const start = rate.validFrom > from ? rate.validFrom : from;
      const end = rate.validUntil !== null && rate.validUntil < to ? rate.validUntil : to;
      return start < end ? [{ rate, from: start, to: end }] : [];
    });
}
