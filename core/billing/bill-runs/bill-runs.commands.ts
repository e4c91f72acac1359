import { z } from 'zod';
import { BILL_RUN_PHASES, BILL_RUN_STATES } from '../../domain/billing/bill-run.js';
import { calendarDate, endAfter, reference, timestamps } from '../../field-formats.js';
import { pageQuery } from '../../pagination.js';

export const BILL_RUN_QUEUE = 'bill-runs';

export interface BillRunJob {
  accountId: string;
  billRunId: string;
}

export const createBillRunCommand = z
  .object({ periodStart: calendarDate, periodEnd: calendarDate, siteIds: z.array(reference).min(1).max(1000).optional() })
  .strict()
  .superRefine(endAfter('periodStart', 'periodEnd'))
  .meta({ id: 'CreateBillRunInput' });
export type CreateBillRunCommand = z.output<typeof createBillRunCommand>;

export const listBillRunsQuery = pageQuery.extend({ state: z.enum(BILL_RUN_STATES).optional() }).strict();

export const billRunView = z.object({
  id: z.uuid(),
  periodStart: z.string().meta({ format: 'date' }),
  periodEnd: z.string().meta({ format: 'date' }),
  siteIds: z.array(z.uuid()).nullable().describe('null: every site of the account'),
  state: z.enum(BILL_RUN_STATES),
  phase: z.enum(BILL_RUN_PHASES).describe('The phase running or done last; with state failed, the one that failed'),
  failure: z.string().nullable(),
  counts: z.object({
    total: z.number().int().describe('Contracts the run bills (while creating: handled and still to come)'),
    contracts: z.number().int().describe('Contracts handled so far: an invoice or an error each'),
    invoices: z.number().int(),
    issued: z.number().int(),
    errors: z.number().int(),
  }),
  errors: z.array(z.object({ contractId: z.uuid(), code: z.string(), message: z.string() })).describe('Contracts that got no invoice, and why'),
  completedAt: z.string().nullable().meta({ format: 'date-time' }),
  ...timestamps,
}).meta({ id: 'BillRun' });
export type BillRunView = z.output<typeof billRunView>;
