import { addDays } from '../time/calendar-date.js';

/**
 * The length of a contract term or notice period: "ISO 8601 duration limited to
 * days/weeks/months/years, e.g. P1M, P3M, P14D, P6W". Written either `PnW` alone (ISO 8601 does
 * not combine weeks with other parts) or `P[nY][nM][nD]` with at least one part, in that order;
 * each n is 1 to 999 without leading zeros, so every accepted duration is positive and no zero
 * part is written (P1Y, not P1Y0M).
 */
export const TERM_DURATION_PATTERN = /^P(?:([1-9]\d{0,2})W|(?=\d)(?:([1-9]\d{0,2})Y)?(?:([1-9]\d{0,2})M)?(?:([1-9]\d{0,2})D)?)$/;

/** Years and months count as months, weeks as 7 days: P1Y6M2W is not valid, P1Y6M is 18 months. */
export interface TermDuration {
  months: number;
  days: number;
}

export function parseTermDuration(value: string): TermDuration | null {
  const match = TERM_DURATION_PATTERN.exec(value);
  if (!match) return null;
  const [, weeks, years, months, days] = match;
  return { months: Number(years ?? 0) * 12 + Number(months ?? 0), days: Number(weeks ?? 0) * 7 + Number(days ?? 0) };
}

export function isTermDuration(value: string): boolean {
  return parseTermDuration(value) !== null;
}

export const ONE_MONTH: TermDuration = { months: 1, days: 0 };

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The same day number `months` months later (earlier when negative), the month's last day when it has fewer days: 2026-01-31 + 1 month = 2026-02-28. */
function shiftMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const day = Math.min(d, daysInMonth(year, month));
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** `date` plus `times` × `duration`, counted from `date` (months first, then days), so that repeated terms do not drift at month ends. */
export function addDuration(date: string, duration: TermDuration, times = 1): string {
  return addDays(shiftMonths(date, duration.months * times), duration.days * times);
}

/**
 * The last day `from` with addDuration(from, duration) <= `day`. Shifting a day back by some months
 * and forth again never ends later (a clamped day number stays clamped or lower), so
 * `shiftMonths(day - days, -months)` is such a day; clamping loses at most 3 days, so a few steps
 * forward from there find the last one. addDuration never decreases as `from` increases, so every
 * earlier day qualifies too.
 */
export function lastStartEndingBy(day: string, duration: TermDuration): string {
  let from = shiftMonths(addDays(day, -duration.days), -duration.months);
  for (let next = addDays(from, 1); addDuration(next, duration) <= day; next = addDays(next, 1)) from = next;
  return from;
}
