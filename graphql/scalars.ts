import { GraphQLScalarType, Kind } from 'graphql';
import { z } from 'zod';
import { parseDecimal } from '../core/domain/billing/money.js';
import { calendarDate, utcInstant } from '../core/field-formats.js';

/**
 * A scalar written as a string and checked on input by `format`, core's own schema of the format
 * where core has one. A value it refuses is refused like any value of the wrong GraphQL type
 * (BAD_USER_INPUT in variables, GRAPHQL_VALIDATION_FAILED in the document) with core's message;
 * what passes is validated by core per field with REST's codes. Output is core's string
 * unchanged: exactly what REST shows.
 */
function stringScalar(name: string, example: string, description: string, format: z.ZodType<string>) {
  const parse = (value: unknown): string => {
    if (typeof value !== 'string') throw new TypeError(`A ${name} is written as a string, e.g. "${example}".`);
    const result = format.safeParse(value);
    if (!result.success) throw new TypeError(result.error.issues[0]!.message);
    return result.data;
  };
  return new GraphQLScalarType<string, string>({
    name,
    description: `${description}, e.g. "${example}"`,
    serialize: (value) => {
      if (typeof value !== 'string') throw new TypeError(`${name} expects core's string, got ${typeof value}.`);
      return value;
    },
    parseValue: parse,
    parseLiteral: (node) => parse(node.kind === Kind.STRING ? node.value : undefined),
  });
}

export const DateTimeScalar = stringScalar('DateTime', '2026-10-01T00:00:00.000Z', 'An instant: ISO 8601 in UTC with milliseconds', utcInstant);

export const DateScalar = stringScalar('Date', '2026-10-01', 'A calendar date YYYY-MM-DD, in the account timezone where it bounds a period', calendarDate);

export const DecimalScalar = stringScalar(
  'Decimal',
  '12.34',
  'An exact decimal as a string, never a float: money, unit prices, quantities, percentages and shares; each field has its own number of decimals and range, checked as in REST',
  // Any number of decimals here: the field's own scale is core's rule, applied to the input after.
  z.string().refine((value) => parseDecimal(value, value.length) !== null, { message: 'Expected a decimal string such as "12.34" or "-0.5".' }),
);
