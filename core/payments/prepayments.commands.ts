import { z } from 'zod';
import { calendarDate, endAfter, money, readOnlyEcho, reference, timestamps } from '../field-formats.js';
import { pageQuery } from '../pagination.js';
import type { RemovedField } from '../validation.js';

const amountFields = { contractId: reference, amount: money('non_negative'), validFrom: calendarDate };
export const createPrepaymentAmountCommand = z.object(amountFields).strict();
export const updatePrepaymentAmountCommand = z.object({ ...readOnlyEcho, ...amountFields }).partial().strict();
export const listPrepaymentAmountsQuery = pageQuery.extend({ contractId: z.uuid().optional() }).strict();
export const prepaymentAmountView = z.object({ id: z.uuid(), contractId: z.uuid(), amount: z.string(), validFrom: z.string(), ...timestamps });
export type PrepaymentAmountView = z.output<typeof prepaymentAmountView>;

export const createPrepaymentRequestCommand = z
  .object({ contractId: reference, startDate: calendarDate, endDate: calendarDate })
  .strict()
  .superRefine(endAfter('startDate', 'endDate'));
export const removedPrepaymentRequestFields: RemovedField[] = [
  { path: ['date'], replacement: 'startDate and endDate' },
  { path: ['paymentId'], replacement: 'paymentIds (in the response)' },
];
export const listPrepaymentRequestsQuery = pageQuery.extend({ contractId: z.uuid().optional() }).strict();
export const prepaymentRequestView = z.object({
  id: z.uuid(),
  contractId: z.uuid(),
  startDate: z.string(),
  endDate: z.string(),
  paymentIds: z.array(z.uuid()),
  createdAt: z.string(),
});
export type PrepaymentRequestView = z.output<typeof prepaymentRequestView>;
