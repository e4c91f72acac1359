import { addDays, addMonths } from '../time/calendar-date.js';

export const SEQUENCE_TYPES = ['FRST', 'RCUR'] as const;
export type SequenceType = (typeof SEQUENCE_TYPES)[number];

/** One earlier collection of the same mandate version (same payment method, mandate reference and IBAN) in a run that was not cancelled. */
export interface MandateUse {
  collectionDate: string;
  sequenceType: SequenceType;
  failed: boolean;
}

/** Months without a presented collection after which a SEPA mandate expires. */
const MANDATE_EXPIRY_MONTHS = 36;

/**
 * FRST for a mandate version's first collection and again while every earlier one was a failed
 * FRST; RCUR once one FRST did not fail (submitted, received) or an RCUR was presented.
 */
export function sequenceTypeFor(previous: readonly MandateUse[]): SequenceType {
  return previous.some((use) => use.sequenceType === 'RCUR' || !use.failed) ? 'RCUR' : 'FRST';
}

/** The same day of the month `months` later, or that month's last day when it is shorter (31 Aug → 28/29 Feb). */
function sameDayMonthsLater(date: string, months: number): string {
  const firstOfMonth = addMonths(date, months);
  const lastDay = Number(addDays(addMonths(firstOfMonth, 1), -1).slice(8));
  return `${firstOfMonth.slice(0, 8)}${String(Math.min(Number(date.slice(8)), lastDay)).padStart(2, '0')}`;
}

/**
 * Rule (EPC SDD Core rulebook): a mandate expires when no collection was presented for 36 months;
 * never used mandates count from their signature date. True when `collectionDate` is after
 * lastUse + 36 months (lastUse = the latest of signedAt and every previous collection date; a
 * collection counts as presented even when it was rejected, returned or refunded).
 */
export function mandateExpired(signedAt: string, previous: readonly MandateUse[], collectionDate: string): boolean {
  const lastUse = previous.reduce((latest, use) => (use.collectionDate > latest ? use.collectionDate : latest), signedAt);
  return collectionDate > sameDayMonthsLater(lastUse, MANDATE_EXPIRY_MONTHS);
}
