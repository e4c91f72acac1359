import { z } from 'zod';
import { customAttributesInput } from '../custom-attributes/custom-attributes.commands.js';
import { isTermDuration, TERM_DURATION_PATTERN } from '../domain/contracts/term-duration.js';
import { calendarDate, endAfter, readOnlyEcho, reference, timestamps } from '../field-formats.js';
import { pageQuery } from '../pagination.js';

const optionalEnd = calendarDate.nullish().transform((v) => v ?? null);

/** A notice or renewal period; core/domain/contracts/term-duration.ts says what is accepted. */
const optionalDuration = z
  .string()
  .refine(isTermDuration, {
    message: 'Expected an ISO 8601 duration in years, months, weeks or days, e.g. P1M, P3M, P14D, P6W, P1Y.',
    params: { code: 'invalid_duration' },
  })
  .meta({ pattern: TERM_DURATION_PATTERN.source, examples: ['P1M'] })
  .nullish()
  .transform((v) => v ?? null);

const contractFields = {
  customerId: reference,
  electricityProductId: reference,
  siteId: reference,
  dunningBlock: z.boolean(),
  startDate: calendarDate,
  endDate: optionalEnd,
  minimumTermEndDate: optionalEnd,
  noticePeriod: optionalDuration,
  renewalPeriod: optionalDuration,
  number: z.string().trim().min(1).max(100),
  customAttributes: customAttributesInput,
};

export const createContractCommand = z
  .object({ ...contractFields, customAttributes: customAttributesInput.default({}) })
  .strict()
  .superRefine(endAfter('startDate', 'endDate'))
  .superRefine(endAfter('startDate', 'minimumTermEndDate'))
  .meta({ id: 'CreateContractInput' });
export const updateContractCommand = z.object({ ...readOnlyEcho, ...contractFields }).partial().strict().meta({ id: 'UpdateContractInput' });
export const listContractsQuery = pageQuery
  .extend({ siteId: z.uuid().optional(), customerId: z.uuid().optional(), electricityProductId: z.uuid().optional() })
  .strict();

export const contractView = z.object({
  id: z.uuid(),
  customerId: z.uuid(),
  electricityProductId: z.uuid(),
  siteId: z.uuid(),
  dunningBlock: z.boolean(),
  startDate: z.string().meta({ format: 'date' }),
  endDate: z.string().nullable().meta({ format: 'date' }),
  minimumTermEndDate: z.string().nullable().meta({ format: 'date' }),
  noticePeriod: z.string().nullable(),
  renewalPeriod: z.string().nullable(),
  number: z.string(),
  customAttributes: z.record(z.string(), z.unknown()),
  ...timestamps,
}).meta({ id: 'Contract' });
export type ContractView = z.output<typeof contractView>;

const contractMeterFields = { contractId: reference, siteId: reference, meterId: reference, startDate: calendarDate, endDate: optionalEnd };

export const createContractMeterCommand = z
  .object(contractMeterFields)
  .strict()
  .superRefine(endAfter('startDate', 'endDate'))
  .meta({ id: 'CreateContractMeterInput' });
export const updateContractMeterCommand = z.object({ ...readOnlyEcho, ...contractMeterFields }).partial().strict().meta({ id: 'UpdateContractMeterInput' });
export const listContractMetersQuery = pageQuery.extend({ contractId: z.uuid().optional(), meterId: z.uuid().optional(), siteId: z.uuid().optional() }).strict();

export const contractMeterView = z.object({
  id: z.uuid(),
  contractId: z.uuid(),
  siteId: z.uuid(),
  meterId: z.uuid(),
  startDate: z.string().meta({ format: 'date' }),
  endDate: z.string().nullable().meta({ format: 'date' }),
  ...timestamps,
}).meta({ id: 'ContractMeter' });
export type ContractMeterView = z.output<typeof contractMeterView>;
