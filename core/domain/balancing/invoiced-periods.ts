import { periodsOverlap, type DatePeriod } from '../periods.js';

/** An issued (or paid) invoice of a contract on a site, over its billing period [startDate, endDate). */
export interface InvoicedPeriod extends DatePeriod {
  endDate: string;
  invoiceId: string;
  number: string;
}

/**
 * The earliest invoiced period a re-balance of `periods` would change: the balanced energy of an
 * invoiced period is billed, so it must stay as it was until the invoice is cancelled.
 */
export function invoicedOverlap(invoiced: readonly InvoicedPeriod[], periods: readonly DatePeriod[]): InvoicedPeriod | null {
  const earliestFirst = [...invoiced].sort((a, b) => (a.startDate < b.startDate ? -1 : a.startDate > b.startDate ? 1 : 0));
  return earliestFirst.find((period) => periods.some((rebalanced) => periodsOverlap(period, rebalanced))) ?? null;
}

/** Instants from `from` to `to`, both inclusive, as the worker's changed ranges are. */
export interface ChangedRange {
  from: number;
  to: number;
}

/**
 * Splits changed ranges at invoiced periods (as instants, [from, to)): the parts inside one are held
 * back under its invoice (the first by start where invoices overlap), the rest is balanced.
 */
export function holdBack(ranges: readonly ChangedRange[], invoiced: readonly { from: number; to: number; invoiceId: string }[]): { balance: ChangedRange[]; held: (ChangedRange & { invoiceId: string })[] } {
  const periods = [...invoiced].sort((a, b) => a.from - b.from);
  const balance: ChangedRange[] = [];
  const held: (ChangedRange & { invoiceId: string })[] = [];
  for (const range of ranges) {
    let from = range.from;
    for (const period of periods) {
      if (period.to <= from || period.from > range.to) continue;
      if (period.from > from) balance.push({ from, to: period.from - 1 });
      held.push({ from: Math.max(from, period.from), to: Math.min(range.to, period.to - 1), invoiceId: period.invoiceId });
      from = period.to;
      if (from > range.to) break;
    }
    if (from <= range.to) balance.push({ from, to: range.to });
  }
  return { balance, held };
}
