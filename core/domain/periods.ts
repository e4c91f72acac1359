/** A half-open range of calendar dates `[startDate, endDate)`; a null end is open. */
export interface DatePeriod {
  startDate: string;
  endDate: string | null;
}

/** ISO dates compare correctly as strings. */
export function periodsOverlap(a: DatePeriod, b: DatePeriod): boolean {
  const aEndsAfterBStarts = a.endDate === null || a.endDate > b.startDate;
  const bEndsAfterAStarts = b.endDate === null || b.endDate > a.startDate;
  return aEndsAfterBStarts && bEndsAfterAStarts;
}

/** The first of `others` (by their own id) that shares a day with `period`. */
export function findOverlap<P extends DatePeriod & { id: string }>(period: DatePeriod & { id: string }, others: readonly P[]): P | undefined {
  return others.find((other) => other.id !== period.id && periodsOverlap(period, other));
}

/** Whether a dated record (a contract, a contract meter) is in force on any day of `[from, to)`. */
export function inForce(record: DatePeriod, from: string, to: string): boolean {
  return periodsOverlap(record, { startDate: from, endDate: to });
}

/** Whether a dated record is in force on `day`. */
export function inForceOn(record: DatePeriod, day: string): boolean {
  return day >= record.startDate && (record.endDate === null || day < record.endDate);
}
