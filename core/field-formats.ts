import { z } from 'zod';
import { isCalendarDate, isUtcInstant } from './domain/time/calendar-date.js';
import { MAX_STORED_UNITS, parseDecimal } from './domain/billing/money.js';
import type { CheckedIdentifier, IdentifierProblem } from './domain/legal/identifiers.js';

export const calendarDate = z
  .string()
  .refine(isCalendarDate, { message: 'Expected a date YYYY-MM-DD.', params: { code: 'invalid_date' } })
  .meta({ format: 'date' });

export const utcInstant = z
  .string()
  .refine(isUtcInstant, { message: 'Expected an ISO 8601 UTC timestamp with milliseconds, e.g. 2026-01-01T00:00:00.000Z.', params: { code: 'invalid_date_time' } })
  .meta({ format: 'date-time' });

export const optionalText = z.string().trim().min(1).max(200).nullish().transform((v) => v ?? null);

export const optionalEmail = z.email().max(320).nullish().transform((v) => v ?? null);

/** An id naming another resource; existence is checked by the use case (`reference_not_found`). */
export const reference = z.uuid();

/** A nullable field normalised by `normalise`; anything it cannot normalise is `code`. */
export function normalised(normalise: (value: string) => string | null, code: string, message: string) {
  return z
    .string()
    .nullish()
    .transform((value, ctx) => {
      if (value === null || value === undefined) return null;
      const result = normalise(value);
      if (result === null) ctx.addIssue({ code: 'custom', message, params: { code } });
      return result;
    });
}

/** A nullable identifier checked by `check`, answered normalised; its problems are reported with these messages. */
export function identifier(check: (value: string) => CheckedIdentifier, messages: Record<IdentifierProblem, string>) {
  return z
    .string()
    .nullish()
    .transform((value, ctx) => {
      if (value === null || value === undefined) return null;
      const checked = check(value);
      if (checked.ok) return checked.value;
      ctx.addIssue({ code: 'custom', message: messages[checked.problem], params: { code: checked.problem } });
      return z.NEVER;
    });
}

/** The view of an id reference or timestamps in responses. */
export const timestamps = { createdAt: z.string().meta({ format: 'date-time' }), updatedAt: z.string().meta({ format: 'date-time' }) };

/** Echoed read-only fields a PATCH body may carry unchanged; `readOnly` keeps them out of the documented request bodies. */
export const readOnlyEcho = { id: z.string().meta({ readOnly: true }), createdAt: z.string().meta({ readOnly: true }), updatedAt: z.string().meta({ readOnly: true }) };

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

/**
 * A decimal string with at most `scale` decimals, at least `least` units of 10^-scale, stored as
 * a signed 64-bit integer of those units: longer amounts are `out_of_range`, never a database error.
 */
export function decimalAmount(scale: number, least: bigint, message: string) {
  return z.string().superRefine((value, ctx) => {
    const units = parseDecimal(value, scale);
    if (units === null || units < least) ctx.addIssue({ code: 'custom', message, params: { code: 'invalid_amount' } });
    else if (units > MAX_STORED_UNITS) ctx.addIssue({ code: 'custom', message: `The amount is too large to store (at most ${MAX_STORED_UNITS} units of 10^-${scale}).`, params: { code: 'out_of_range' } });
  });
}

/** Money as a decimal string with at most 2 decimals, e.g. "12.34"; `positive` excludes zero. */
export function money(sign: 'positive' | 'non_negative') {
  return decimalAmount(
    2,
    sign === 'positive' ? 1n : 0n,
    `Expected a ${sign === 'positive' ? 'positive' : 'non-negative'} amount as a decimal string with at most 2 decimals, e.g. "12.34".`,
  );
}

const DIGITS = /^-?\d{1,16}$/;

/**
 * An integer query parameter written with digits only (`1e2`, `0x10`, `+5` and spaces are
 * `invalid_integer`), or an integer already typed as one (GraphQL arguments).
 */
export function integerParameter(bounds: { min: number; max: number; default: number }) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return bounds.default;
      const number = typeof value === 'string' && DIGITS.test(value) ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isSafeInteger(number)) {
        ctx.addIssue({ code: 'custom', message: 'Expected an integer written with digits only.', params: { code: 'invalid_integer' } });
        return z.NEVER;
      }
      if (number < bounds.min || number > bounds.max) {
        ctx.addIssue({ code: 'custom', message: `Expected an integer from ${bounds.min} to ${bounds.max}.`, params: { code: 'out_of_range' } });
        return z.NEVER;
      }
      return number;
    })
    .meta({ type: 'integer', minimum: bounds.min, maximum: bounds.max, default: bounds.default });
}
