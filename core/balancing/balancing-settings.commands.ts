import { z } from 'zod';
import { BALANCING_KINDS } from '../domain/balancing/balancing-setting.js';
import { calendarDate, endAfter, readOnlyEcho, reference, timestamps } from '../field-formats.js';
import { pageQuery } from '../pagination.js';
import type { RemovedField } from '../validation.js';

const settingFields = {
  siteId: reference,
  meterId: reference,
  balancing: z.enum(BALANCING_KINDS),
  startDate: calendarDate,
  endDate: calendarDate.nullish().transform((v) => v ?? null),
  priority: z.number().int().min(-1_000_000).max(1_000_000).nullish().transform((v) => v ?? null),
};

export const createBalancingSettingCommand = z.object(settingFields).strict().superRefine(endAfter('startDate', 'endDate'));
export const updateBalancingSettingCommand = z.object({ ...readOnlyEcho, ...settingFields }).partial().strict();
export const listBalancingSettingsQuery = pageQuery.extend({ siteId: z.uuid().optional(), meterId: z.uuid().optional() }).strict();

export const removedBalancingSettingFields: RemovedField[] = [{ path: ['accountId'], replacement: 'nothing: the account comes from the token' }];

export const balancingSettingView = z.object({
  id: z.uuid(),
  siteId: z.uuid(),
  meterId: z.uuid(),
  balancing: z.enum(BALANCING_KINDS),
  startDate: z.string(),
  endDate: z.string().nullable(),
  priority: z.number().int().nullable(),
  ...timestamps,
});
export type BalancingSettingView = z.output<typeof balancingSettingView>;
