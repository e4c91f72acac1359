import { z } from 'zod';
import { PREPAYMENT_CYCLES } from '../domain/products/electricity-product.js';
import { readOnlyEcho, timestamps } from '../field-formats.js';
import { pageQuery } from '../pagination.js';
import type { RemovedField } from '../validation.js';

const prepaymentConfiguration = z
  .object({ cycle: z.enum(PREPAYMENT_CYCLES), dayOfMonth: z.number().int().min(1).max(28) })
  .strict();

const productFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().max(2000).nullish().transform((v) => v ?? null),
  prepaymentConfiguration: prepaymentConfiguration.nullish().transform((v) => v ?? null),
};

export const createProductCommand = z.object(productFields).strict();
export const updateProductCommand = z
  .object({ ...readOnlyEcho, ...productFields, prepaymentConfiguration: prepaymentConfiguration.partial().nullable() })
  .partial()
  .strict();

export const listProductsQuery = pageQuery;

export const removedProductFields: RemovedField[] = [{ path: ['prepaymentCycle'], replacement: 'prepaymentConfiguration { cycle, dayOfMonth }' }];

export const productView = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  prepaymentConfiguration: z.object({ cycle: z.enum(PREPAYMENT_CYCLES), dayOfMonth: z.number().int() }).nullable(),
  ...timestamps,
});
export type ProductView = z.output<typeof productView>;
