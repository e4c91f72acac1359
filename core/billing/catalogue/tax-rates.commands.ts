import { z } from 'zod';
import { parseDecimal } from '../../domain/billing/money.js';
import { calendarDate, endAfter, readOnlyEcho, timestamps } from '../../field-formats.js';
import { pageQuery } from '../../pagination.js';

/** A percentage as a decimal string, e.g. "19.00"; at most 2 decimals, 0 to 100. */
export const percentage = z.string().refine(
  (value) => {
    const hundredths = parseDecimal(value, 2);
    return hundredths !== null && hundredths >= 0n && hundredths <= 10_000n;
  },
  { message: 'Expected a percentage as a decimal string from "0.00" to "100.00".', params: { code: 'invalid_percentage' } },
);

const taxRateFields = {
  name: z.string().trim().min(1).max(100),
  percentage,
  validFrom: calendarDate,
  validUntil: calendarDate.nullish().transform((v) => v ?? null),
};

export const createTaxRateCommand = z
  .object(taxRateFields)
  .strict()
  .superRefine(endAfter('validFrom', 'validUntil'))
  .meta({ id: 'CreateTaxRateInput' });
export const updateTaxRateCommand = z.object({ ...readOnlyEcho, ...taxRateFields }).partial().strict().meta({ id: 'UpdateTaxRateInput' });
export const listTaxRatesQuery = pageQuery.extend({ name: z.string().optional() }).strict();

export const taxRateView = z.object({
  id: z.uuid(),
  name: z.string(),
  percentage: z.string(),
  validFrom: z.string().meta({ format: 'date' }),
  validUntil: z.string().nullable().meta({ format: 'date' }),
  ...timestamps,
}).meta({ id: 'TaxRate' });
export type TaxRateView = z.output<typeof taxRateView>;
