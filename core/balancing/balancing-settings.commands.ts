import { z } from 'zod';
import { SHARE_SCALE } from '../domain/balancing/allocation.js';
import { BALANCING_KINDS } from '../domain/balancing/balancing-setting.js';
import { parseDecimal } from '../domain/billing/money.js';
import { calendarDate, decimalAmount, endAfter, readOnlyEcho, reference, timestamps } from '../field-formats.js';
import { pageQuery } from '../pagination.js';
import type { RemovedField } from '../validation.js';

const settingFields = {
  siteId: reference,
  meterId: reference,
  balancing: z.enum(BALANCING_KINDS),
  startDate: calendarDate,
  endDate: calendarDate.nullish().transform((v) => v ?? null),
  priority: z.number().int().min(-1_000_000).max(1_000_000).nullish().transform((v) => v ?? null),
  share: decimalAmount(6, 1n, 'Expected a share above 0 as a decimal string with at most 6 decimals, e.g. "0.25".')
    .refine((value) => parseDecimal(value, 6)! <= BigInt(SHARE_SCALE), { message: 'A share is at most 1.', params: { code: 'out_of_range' } })
    .describe('Share of the local supply under the static allocation key, e.g. "0.25"; the shares of the settings active on a day sum to at most 1')
    .nullish()
    .transform((value) => value ?? null),
};

export const createBalancingSettingCommand = z
  .object(settingFields)
  .strict()
  .superRefine(endAfter('startDate', 'endDate'))
  .meta({ id: 'CreateMeterBalancingSettingInput' });
export const updateBalancingSettingCommand = z.object({ ...readOnlyEcho, ...settingFields }).partial().strict().meta({ id: 'UpdateMeterBalancingSettingInput' });
export const listBalancingSettingsQuery = pageQuery.extend({ siteId: z.uuid().optional(), meterId: z.uuid().optional() }).strict();

export const removedBalancingSettingFields: RemovedField[] = [{ path: ['accountId'], replacement: 'nothing: the account comes from the token' }];

export const balancingSettingView = z.object({
  id: z.uuid(),
  siteId: z.uuid(),
  meterId: z.uuid(),
  balancing: z.enum(BALANCING_KINDS),
  startDate: z.string().meta({ format: 'date' }),
  endDate: z.string().nullable().meta({ format: 'date' }),
  priority: z.number().int().nullable(),
  share: z.string().nullable().describe('Decimal with 6 places, e.g. "0.250000"'),
  ...timestamps,
}).meta({ id: 'MeterBalancingSetting' });
export type BalancingSettingView = z.output<typeof balancingSettingView>;
