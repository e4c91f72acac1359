import { z } from 'zod';
import { customAttributesInput } from '../custom-attributes/custom-attributes.commands.js';
import { AGGREGATIONS, ARITHMETICS } from '../domain/meters/formula.js';
import {
  checkMarketLocationId,
  checkMeteringPointId,
  DIRECTIONS,
  MARKET_LOCATION_ID_PATTERN,
  MEASURING,
  METERING_POINT_ID_PATTERN,
  type IdentifierProblem,
} from '../domain/meters/meter.js';
import { optionalText, readOnlyEcho, reference, timestamps, utcInstant } from '../field-formats.js';
import { pageQuery } from '../pagination.js';
import type { RemovedField } from '../validation.js';

/** The documented shape of a formula component; core/domain/meters/formula.ts checks the grammar. */
const formulaComponent = z.union([
  z.object({ type: z.literal('meter'), meterId: z.uuid() }),
  z.object({ type: z.literal('aggregation'), aggregation: z.enum(AGGREGATIONS), customerId: z.uuid().nullish() }),
  z.object({ type: z.literal('arithmetic'), arithmetic: z.enum(ARITHMETICS) }),
]);

/** An optional identifier checked by its domain rule when set; the rule's problem is the error code. */
function checkedIdentifier<P extends IdentifierProblem>(check: (value: string) => P | null, messages: Record<P, string>, meta: Record<string, unknown>) {
  return z
    .string()
    .superRefine((value, ctx) => {
      const problem = check(value);
      if (problem) ctx.addIssue({ code: 'custom', message: messages[problem], params: { code: problem } });
    })
    .meta(meta)
    .nullish()
    .transform((v) => v ?? null);
}

const marketLocationId = checkedIdentifier(
  checkMarketLocationId,
  {
    invalid_format: 'Expected a MaLo-ID: 11 digits, the first not 0.',
    invalid_check_digit: 'The last digit of the MaLo-ID is not its check digit.',
  },
  { pattern: MARKET_LOCATION_ID_PATTERN.source, examples: ['51238696781'], description: 'MaLo-ID: 11 digits, the 11th its check digit (BDEW); not unique' },
);

const meteringPointId = checkedIdentifier(
  checkMeteringPointId,
  { invalid_format: 'Expected a Zählpunktbezeichnung: DE followed by 31 upper-case letters or digits.' },
  { pattern: METERING_POINT_ID_PATTERN.source, examples: ['DE0001234567890123456789012345678'], description: 'Zählpunktbezeichnung: 33 characters; not unique' },
);

const meterFields = {
  siteId: reference,
  mpoId: reference.nullish().transform((v) => v ?? null),
  direction: z.enum(DIRECTIONS),
  identifier: z.string().trim().min(1).max(100),
  serial: optionalText,
  marketLocationId,
  meteringPointId,
  startDate: utcInstant,
  measuring: z.enum(MEASURING),
  grid: z.boolean().nullish().transform((v) => v ?? false),
  // Shape only: the grammar and its error codes come from parseFormula.
  formula: z.array(z.unknown()).nullish().transform((v) => v ?? null),
  customAttributes: customAttributesInput,
};

export const createMeterCommand = z
  .object({ ...meterFields, customAttributes: customAttributesInput.default({}) })
  .strict()
  .meta({ id: 'CreateMeterInput' });

export const updateMeterCommand = z
  .object({ ...readOnlyEcho, ...meterFields, grid: z.boolean().nullable() })
  .partial()
  .strict()
  .meta({ id: 'UpdateMeterInput' });

export const listMetersQuery = pageQuery.extend({ siteId: z.uuid().optional() }).strict();

export const removedMeterFields: RemovedField[] = [
  { path: ['parentMeterId'], replacement: 'a virtual meter with a formula' },
  { path: ['priority'], replacement: 'priority on the meter balancing setting (POST /v1/meter-balancing-settings)' },
  { path: ['mpo'], replacement: 'mpoId' },
];

export const meterView = z.object({
  id: z.uuid(),
  siteId: z.uuid(),
  mpoId: z.uuid().nullable(),
  direction: z.enum(DIRECTIONS),
  identifier: z.string(),
  serial: z.string().nullable(),
  marketLocationId: z.string().nullable(),
  meteringPointId: z.string().nullable(),
  startDate: z.string().meta({ format: 'date-time' }),
  measuring: z.enum(MEASURING),
  grid: z.boolean(),
  formula: z.array(formulaComponent).nullable(),
  customAttributes: z.record(z.string(), z.unknown()),
  ...timestamps,
}).meta({ id: 'Meter' });
export type MeterView = z.output<typeof meterView>;
