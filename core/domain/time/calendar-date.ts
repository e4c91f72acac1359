const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written `YYYY-MM-DD`. */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function digits(value: string, from: number, count: number): number {
  let result = 0;
  for (let i = from; i < from + count; i++) {
    const digit = value.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    result = result * 10 + digit;
  }
  return result;
}

/**
 * Epoch ms of an ISO 8601 UTC instant with milliseconds (`2026-01-01T00:00:00.000Z`), or null.
 * Read by character position: this runs for every value of an upload.
 */
export function parseUtcInstant(value: string): number | null {
  if (value.length !== 24 || value[4] !== '-' || value[7] !== '-' || value[10] !== 'T' || value[13] !== ':' || value[16] !== ':' || value[19] !== '.' || value[23] !== 'Z') {
    return null;
  }
  const [year, month, day, hour, minute, second, ms] = [digits(value, 0, 4), digits(value, 5, 2), digits(value, 8, 2), digits(value, 11, 2), digits(value, 14, 2), digits(value, 17, 2), digits(value, 20, 3)] as const;
  if (year < 0 || ms < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
    return null;
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

/** An ISO 8601 UTC instant with milliseconds, e.g. `2026-01-01T00:00:00.000Z`. */
export function isUtcInstant(value: string): boolean {
  return parseUtcInstant(value) !== null;
}

// Building a formatter costs far more than using one; zones are few.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The local wall-clock time of an instant, as epoch ms of the same digits in UTC (whole seconds). */
export function wallClock(instant: number, timeZone: string): number {
  const parts = formatterFor(timeZone).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
}

/** The zone's offset from UTC at an instant, in ms. */
export function offsetMs(instant: number, timeZone: string): number {
  return wallClock(instant, timeZone) - Math.floor(instant / 1000) * 1000;
}

/**
 * Each start of a day costs two Intl lookups, and a bill run or a balancing asks for the same few
 * dates thousands of times: the answers are kept per zone and date (forgotten all at once beyond a
 * bound, which no run comes near).
 */
const dayStarts = new Map<string, number>();
const MAX_DAY_STARTS = 100_000;

/**
 * The instant a calendar date begins in a time zone (00:00 local). Midnight exists in every
 * zone ebbs serves (DST shifts happen at night, not at midnight); the two-pass offset lookup
 * also settles a date whose offset differs from the previous day's.
 */
export function startOfDay(date: string, timeZone: string): Date {
  const key = `${timeZone}|${date}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    const wallMidnight = Date.UTC(y, m - 1, d);
    const guess = wallMidnight - offsetMs(wallMidnight, timeZone);
    start = wallMidnight - offsetMs(guess, timeZone);
    if (dayStarts.size >= MAX_DAY_STARTS) dayStarts.clear();
    dayStarts.set(key, start);
  }
  return new Date(start);
}

/** The calendar date an instant falls on in a time zone. */
export function calendarDateOf(instant: Date, timeZone: string): string {
  return new Date(wallClock(instant.getTime(), timeZone)).toISOString().slice(0, 10);
}

const DAY_MS = 86_400_000;

/** The calendar date `days` after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The first day of the month `months` after the month of `date`. */
export function addMonths(date: string, months: number): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + months;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

/** Days from `from` to `to` (calendar days, whatever the clocks do). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / DAY_MS);
}

/** Calendar months from the month of `from` to the month of `to`. */
export function monthsBetween(from: string, to: string): number {
  return (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7));
}

/**
 * Where the 96 quarter hours of a UTC day split between two local days of `timeZone`: slots
 * `[0, split)` belong to the local date of the day's first instant, `[split, 96)` to the next one
 * (`split` is 96 when the local day ends with the UTC day).
 */
export function localDaySplit(utcDay: string, timeZone: string): number {
  const start = Date.parse(`${utcDay}T00:00:00.000Z`);
  const nextMidnight = startOfDay(addDays(calendarDateOf(new Date(start), timeZone), 1), timeZone).getTime();
  return Math.min(96, (nextMidnight - start) / 900_000);
}
