import { z } from 'zod';
import { customAttributesInput } from '../../custom-attributes/custom-attributes.commands.js';
import { DEFAULT_PRICE_COMPONENT_CATEGORY, PRICE_COMPONENT_CATEGORIES, PRICE_COMPONENT_KINDS, PRICE_UNITS, unitOf } from '../../domain/billing/price.js';
import { calendarDate, decimalAmount, readOnlyEcho, reference, timestamps } from '../../field-formats.js';
import { pageQuery } from '../../pagination.js';

const groupFields = { electricityProductId: reference, name: z.string().trim().min(1).max(200), position: z.number().int().min(0).max(10_000) };
export const createPriceComponentGroupCommand = z
  .object({ ...groupFields, position: groupFields.position.default(0) })
  .strict()
  .meta({ id: 'CreatePriceComponentGroupInput' });
export const updatePriceComponentGroupCommand = z.object({ ...readOnlyEcho, ...groupFields }).partial().strict().meta({ id: 'UpdatePriceComponentGroupInput' });
export const listPriceComponentGroupsQuery = pageQuery.extend({ electricityProductId: z.uuid().optional() }).strict();
export const priceComponentGroupView = z
  .object({ id: z.uuid(), electricityProductId: z.uuid(), name: z.string(), position: z.number().int(), ...timestamps })
  .meta({ id: 'PriceComponentGroup' });
export type PriceComponentGroupView = z.output<typeof priceComponentGroupView>;

const componentFields = {
  priceComponentGroupId: reference,
  name: z.string().trim().min(1).max(200),
  kind: z.enum(PRICE_COMPONENT_KINDS),
  unit: z.enum(PRICE_UNITS),
  category: z.enum(PRICE_COMPONENT_CATEGORIES),
  taxRateId: reference,
  customAttributes: customAttributesInput,
};
export const createPriceComponentCommand = z
  .object({
    ...componentFields,
    unit: componentFields.unit.optional(),
    category: componentFields.category.default(DEFAULT_PRICE_COMPONENT_CATEGORY),
    customAttributes: customAttributesInput.default({}),
  })
  .strict()
  .superRefine((component, ctx) => {
    if (component.unit && component.unit !== unitOf(component.kind)) {
      ctx.addIssue({ code: 'custom', path: ['unit'], message: `A ${component.kind} component is priced per ${unitOf(component.kind)}.`, params: { code: 'unit_mismatch' } });
    }
  })
  .transform((component) => ({ ...component, unit: unitOf(component.kind) }))
  .meta({ id: 'CreatePriceComponentInput' });
// `category: null` in a merge patch removes the member, so the merged component is `energy` again.
export const updatePriceComponentCommand = z
  .object({ ...readOnlyEcho, ...componentFields, category: componentFields.category.nullable() })
  .partial()
  .strict()
  .meta({ id: 'UpdatePriceComponentInput' });
export const listPriceComponentsQuery = pageQuery.extend({ priceComponentGroupId: z.uuid().optional() }).strict();
export const priceComponentView = z.object({
  id: z.uuid(),
  priceComponentGroupId: z.uuid(),
  name: z.string(),
  kind: z.enum(PRICE_COMPONENT_KINDS),
  unit: z.enum(PRICE_UNITS),
  category: z.enum(PRICE_COMPONENT_CATEGORIES),
  taxRateId: z.uuid(),
  customAttributes: z.record(z.string(), z.unknown()),
  ...timestamps,
}).meta({ id: 'PriceComponent' });
export type PriceComponentView = z.output<typeof priceComponentView>;

/** A net unit price as a decimal string with at most 6 decimals, e.g. "0.289500". */
const amount = decimalAmount(6, 0n, 'Expected a non-negative decimal string with at most 6 decimals, e.g. "0.289500".');
const priceFields = { priceComponentId: reference, validFrom: calendarDate, amount };
export const createPriceCommand = z.object(priceFields).strict().meta({ id: 'CreatePriceInput' });
export const updatePriceCommand = z.object({ ...readOnlyEcho, ...priceFields }).partial().strict().meta({ id: 'UpdatePriceInput' });
export const listPricesQuery = pageQuery.extend({ priceComponentId: z.uuid().optional() }).strict();
export const priceView = z
  .object({ id: z.uuid(), priceComponentId: z.uuid(), validFrom: z.string().meta({ format: 'date' }), amount: z.string(), ...timestamps })
  .meta({ id: 'Price' });
export type PriceView = z.output<typeof priceView>;
