import { z } from 'zod';
import { calendarDate, endAfter, money, readOnlyEcho, reference, timestamps } from '../field-formats.js';
import { pageQuery } from '../pagination.js';
import type { RemovedField } from '../validation.js';

const amountFields = { contractId: reference, amount: money('non_negative'), validFrom: calendarDate };
export const createPrepaymentAmountCommand = z.object(amountFields).strict().meta({ id: 'CreatePrepaymentAmountInput' });
export const updatePrepaymentAmountCommand = z.object({ ...readOnlyEcho, ...amountFields }).partial().strict().meta({ id: 'UpdatePrepaymentAmountInput' });
export const listPrepaymentAmountsQuery = pageQuery.extend({ contractId: z.uuid().optional() }).strict();
export const prepaymentAmountView = z
  .object({ id: z.uuid(), contractId: z.uuid(), amount: z.string(), validFrom: z.string().meta({ format: 'date' }), ...timestamps })
  .meta({ id: 'PrepaymentAmount' });
export type PrepaymentAmountView = z.output<typeof prepaymentAmountView>;

export const createPrepaymentRequestCommand = z
  .object({ contractId: reference, startDate: calendarDate, endDate: calendarDate })
  .strict()
  .superRefine(endAfter('startDate', 'endDate'))
  .meta({ id: 'CreatePrepaymentRequestInput' });
export const removedPrepaymentRequestFields: RemovedField[] = [
  { path: ['date'], replacement: 'startDate and endDate' },
  { path: ['paymentId'], replacement: 'paymentIds (in the response)' },
];
export const listPrepaymentRequestsQuery = pageQuery.extend({ contractId: z.uuid().optional() }).strict();
export const prepaymentRequestView = z.object({
  id: z.uuid(),
  contractId: z.uuid(),
  startDate: z.string().meta({ format: 'date' }),
  endDate: z.string().meta({ format: 'date' }),
  paymentIds: z.array(z.uuid()),
  createdAt: z.string().meta({ format: 'date-time' }),
}).meta({ id: 'PrepaymentRequest' });
export type PrepaymentRequestView = z.output<typeof prepaymentRequestView>;
