import type { PrepaymentConfiguration } from '../products/electricity-product.js';
import { addMonths, monthsBetween } from '../time/calendar-date.js';

/** The amount a contract prepays per due date, from `validFrom` on. */
export class PrepaymentAmount {
  id!: string;
  accountId!: string;
  contractId!: string;
  /** Cents; zero pauses prepayments. */
  amount!: bigint;
  validFrom!: string;
  createdAt!: Date;
  updatedAt!: Date;
}

/** A record of one "ensure the prepayments of [startDate, endDate)" request and what it ensured. */
export class PrepaymentRequest {
  id!: string;
  accountId!: string;
  contractId!: string;
  startDate!: string;
  endDate!: string;
  paymentIds!: string[];
  createdAt!: Date;
}

const MONTHS_PER_CYCLE = { monthly: 1, quarterly: 3, yearly: 12 } as const;

/**
 * The due dates in [from, to): `dayOfMonth` of every cycle's first month, cycles counted from the
 * month the contract starts in (a quarterly contract starting in February is due in February, May,
 * August and November).
 */
export function dueDates(configuration: PrepaymentConfiguration, contractStart: string, from: string, to: string): string[] {
  const step = MONTHS_PER_CYCLE[configuration.cycle];
  const day = String(configuration.dayOfMonth).padStart(2, '0');
  const cyclesBeforeFrom = Math.max(0, Math.ceil(monthsBetween(contractStart, from) / step));
  const dates: string[] = [];
  for (let month = addMonths(contractStart, cyclesBeforeFrom * step); month < to; month = addMonths(month, step)) {
    const date = `${month.slice(0, 8)}${day}`;
    if (date >= from && date < to) dates.push(date);
  }
  return dates;
}

/** The amount in force on a date: the latest `validFrom` not after it; null before the first. */
export function amountOn(amounts: readonly PrepaymentAmount[], date: string): PrepaymentAmount | null {
  return amounts.reduce<PrepaymentAmount | null>(
    (found, amount) => (amount.validFrom <= date && (!found || amount.validFrom > found.validFrom) ? amount : found),
    null,
  );
}
