import { z } from 'zod';
import { FUEL_SOURCES, percentageTenths, PREPAYMENT_CYCLES, repeatedSources, sumsToHundred, totalTenths } from '../domain/products/electricity-product.js';
import { readOnlyEcho, timestamps } from '../field-formats.js';
import { pageQuery } from '../pagination.js';
import type { RemovedField } from '../validation.js';

const prepaymentConfiguration = z
  .object({ cycle: z.enum(PREPAYMENT_CYCLES), dayOfMonth: z.number().int().min(1).max(28) })
  .strict();

const fuelMixSource = z
  .object({
    source: z.enum(FUEL_SOURCES),
    percentage: z.number().refine((percentage) => percentageTenths(percentage) !== null, {
      message: 'Expected a percentage from 0 to 100 with at most 1 decimal place, e.g. 42.5.',
      params: { code: 'invalid_percentage' },
    }),
  })
  .strict();

/** The rules live in core/domain/products/electricity-product.ts: each source once, percentages summing to 100. */
const fuelMixSources = z.array(fuelMixSource).superRefine((sources, ctx) => {
  for (const index of repeatedSources(sources)) {
    ctx.addIssue({ code: 'custom', path: [index, 'source'], message: `${sources[index]!.source} is named more than once.`, params: { code: 'duplicate_source' } });
  }
  // Judged only when every percentage is valid: an invalid one has its own error.
  const percentages = sources.map((entry) => entry.percentage);
  const total = totalTenths(percentages);
  if (total !== null && !sumsToHundred(percentages)) {
    ctx.addIssue({ code: 'custom', message: `The percentages sum to ${total / 10}; a fuel mix sums to exactly 100.`, params: { code: 'fuel_mix_not_100' } });
  }
});

/** The Stromkennzeichnung (§42 EnWG); the year a plausible one, the figures non-negative. */
const fuelMix = z
  .object({
    year: z.number().int().min(2000).max(2100),
    sources: fuelMixSources,
    co2GramsPerKwh: z.number().min(0),
    radioactiveWasteMgPerKwh: z.number().min(0),
  })
  .strict();

const productFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().max(2000).nullish().transform((v) => v ?? null),
  prepaymentConfiguration: prepaymentConfiguration.nullish().transform((v) => v ?? null),
  fuelMix: fuelMix.nullish().transform((v) => v ?? null),
};

export const createProductCommand = z.object(productFields).strict().meta({ id: 'CreateElectricityProductInput' });
export const updateProductCommand = z
  .object({ ...readOnlyEcho, ...productFields, prepaymentConfiguration: prepaymentConfiguration.partial().nullable(), fuelMix: fuelMix.partial().nullable() })
  .partial()
  .strict()
  .meta({ id: 'UpdateElectricityProductInput' });

export const listProductsQuery = pageQuery;

export const removedProductFields: RemovedField[] = [{ path: ['prepaymentCycle'], replacement: 'prepaymentConfiguration { cycle, dayOfMonth }' }];

export const productView = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  prepaymentConfiguration: z.object({ cycle: z.enum(PREPAYMENT_CYCLES), dayOfMonth: z.number().int() }).nullable(),
  fuelMix: z
    .object({
      year: z.number().int(),
      sources: z.array(z.object({ source: z.enum(FUEL_SOURCES), percentage: z.number() })),
      co2GramsPerKwh: z.number(),
      radioactiveWasteMgPerKwh: z.number(),
    })
    .nullable(),
  ...timestamps,
}).meta({ id: 'ElectricityProduct' });
export type ProductView = z.output<typeof productView>;
