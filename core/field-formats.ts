import { z } from 'zod';
import { isCalendarDate, isUtcInstant } from './domain/time/calendar-date.js';
import { parseCents } from './domain/billing/money.js';

export const calendarDate = z.string().refine(isCalendarDate, { message: 'Expected a date YYYY-MM-DD.', params: { code: 'invalid_date' } });

export const utcInstant = z
  .string()
  .refine(isUtcInstant, { message: 'Expected an ISO 8601 UTC timestamp with milliseconds, e.g. 2026-01-01T00:00:00.000Z.', params: { code: 'invalid_date_time' } });

export const optionalText = z.string().trim().min(1).max(200).nullish().transform((v) => v ?? null);

export const optionalEmail = z.email().max(320).nullish().transform((v) => v ?? null);

/** An id naming another resource; existence is checked by the use case (`reference_not_found`). */
export const reference = z.uuid();

/** The view of an id reference or timestamps in responses. */
export const timestamps = { createdAt: z.string(), updatedAt: z.string() };

/** Echoed read-only fields a PATCH body may carry unchanged. */
export const readOnlyEcho = { id: z.string(), createdAt: z.string(), updatedAt: z.string() };

/**
 * Ranges are half-open, [start, end): an end, when given, lies after its start. ISO dates and
 * UTC instants compare correctly as strings.
 */
export function endAfter<K extends string, E extends string>(startKey: K, endKey: E) {
  return (value: Record<K, string> & Partial<Record<E, string | null>>, ctx: z.RefinementCtx): void => {
    const start: string = value[startKey];
    const end = value[endKey] as string | null | undefined;
    if (end && end <= start) {
      ctx.addIssue({ code: 'custom', path: [endKey], message: `${endKey} is after ${startKey} (the range is [${startKey}, ${endKey})).`, params: { code: 'end_not_after_start' } });
    }
  };
}

/** Money as a decimal string with at most 2 decimals, e.g. "12.34"; `positive` excludes zero. */
export function money(sign: 'positive' | 'non_negative') {
  const least = sign === 'positive' ? 1n : 0n;
  return z.string().refine((value) => (parseCents(value) ?? -1n) >= least, {
    message: `Expected a ${sign === 'positive' ? 'positive' : 'non-negative'} amount as a decimal string with at most 2 decimals, e.g. "12.34".`,
    params: { code: 'invalid_amount' },
  });
}
