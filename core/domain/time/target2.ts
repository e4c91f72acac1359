import { addDays, isCalendarDate } from './calendar-date.js';

/*
 * The TARGET2 calendar of the ECB, on which SEPA interbank settlement runs: closed on Saturdays,
 * Sundays, New Year's Day (1 Jan), Good Friday, Easter Monday, Labour Day (1 May), Christmas Day
 * (25 Dec) and 26 December. Dates are `YYYY-MM-DD` calendar dates.
 */

const FIXED_CLOSING_DAYS = new Set(['01-01', '05-01', '12-25', '12-26']);

/** Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, also known as Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function assertCalendarDate(date: string): void {
  if (!isCalendarDate(date)) throw new RangeError(`not a calendar date (YYYY-MM-DD): ${date}`);
}

/** True when TARGET2 settles on `date`. */
export function isTarget2BusinessDay(date: string): boolean {
  assertCalendarDate(date);
  const weekday = new Date(`${date}T00:00:00.000Z`).getUTCDay();
  if (weekday === 0 || weekday === 6 || FIXED_CLOSING_DAYS.has(date.slice(5))) return false;
  const easter = easterSunday(Number(date.slice(0, 4)));
  return date !== addDays(easter, -2) && date !== addDays(easter, 1);
}

/** The first TARGET2 business day strictly after `date`. */
export function nextTarget2BusinessDay(date: string): string {
  assertCalendarDate(date);
  let day = addDays(date, 1);
  while (!isTarget2BusinessDay(day)) day = addDays(day, 1);
  return day;
}

/**
 * The earliest collection date of a SEPA CORE direct debit file handed to the bank on `today`.
 * Rule (SDD Core rulebook since November 2016): the collection must reach the debtor bank at least
 * one TARGET2 business day before the due date (D-1). A file handed in on a business day therefore
 * allows the next business day; one handed in on a closing day is only processed on the next
 * business day, so the earliest due date is the business day after that one. The bank's cut-off
 * time on D-1 is the caller's concern (hand the file in before it, or pass the next day).
 */
export function earliestCollectionDate(today: string): string {
  const processedOn = isTarget2BusinessDay(today) ? today : nextTarget2BusinessDay(today);
  return nextTarget2BusinessDay(processedOn);
}
