import { z } from 'zod';
import { PAYMENT_STATES, PAYMENT_TYPES } from '../domain/payments/payment.js';
import { calendarDate, money, optionalText, readOnlyEcho, reference, timestamps, utcInstant } from '../field-formats.js';
import { pageQuery } from '../pagination.js';

export const MAX_PAYMENTS_PER_BATCH = 1000;

/** A field the system manages: a body may carry `null` (ignored), nothing else. */
function systemManaged(why: string) {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      if (value !== null && value !== undefined) ctx.addIssue({ code: 'custom', message: `${why} Send null or leave it out.`, params: { code: 'field_read_only' } });
    })
    .transform(() => undefined)
    .optional();
}

const paymentFields = {
  contractId: reference,
  amount: money('positive'),
  type: z.enum(PAYMENT_TYPES),
  state: z.enum(PAYMENT_STATES).describe('submitted is set by payment runs only (400 state_not_allowed): a client records the outcome of a submitted payment, received or failed. A payment naming an invoice that becomes received or stops being received, or whose amount, type or invoiceId is corrected while received, brings the settlement and refunds of the invoices it named and names in line: a returned payment cuts back pending refunds made for it, and money arriving for a cancelled invoice gets a pending refund'),
  dueDate: calendarDate
    .nullish()
    .transform((v) => v ?? null)
    .describe('Required for prepayments; payments and refunds without one are due on the day of receivedAt, else of their creation, in the account timezone'),
  receivedAt: utcInstant.nullish().transform((v) => v ?? null),
  paymentMethodId: reference.nullish().transform((v) => v ?? null),
  reference: optionalText,
  lockedAt: systemManaged('"lockedAt" is set when an invoice takes the payment into account.'),
  /** The issued invoice of the contract this payment (or refund) settles. */
  invoiceId: reference.nullish().transform((v) => v ?? null),
};

export const createPaymentCommand = z
  .object({ ...paymentFields, state: paymentFields.state.default('pending') })
  .strict()
  .superRefine((payment, ctx) => {
    if (payment.type === 'prepayment' && payment.dueDate === null) {
      ctx.addIssue({ code: 'custom', path: ['dueDate'], message: 'A prepayment needs its due date.', params: { code: 'required' } });
    }
    if (payment.state !== 'received' && payment.receivedAt !== null) {
      ctx.addIssue({ code: 'custom', path: ['receivedAt'], message: `A ${payment.state} payment has no receivedAt.`, params: { code: 'received_at_without_receipt' } });
    }
  })
  .meta({ id: 'CreatePaymentInput' });
export type CreatePaymentCommand = z.output<typeof createPaymentCommand>;
/** The batch as parsed: its items are parsed one by one (`parseEach`) so every invalid one is named. */
export const paymentsBatchEnvelope = z.object({ payments: z.array(z.unknown()).min(1) }).strict();
/** The batch as documented. */
export const createPaymentsBatchCommand = z
  .object({ payments: z.array(createPaymentCommand).min(1).max(MAX_PAYMENTS_PER_BATCH) })
  .strict()
  .meta({ id: 'CreatePaymentsBatchInput' });
export const updatePaymentCommand = z.object({ ...readOnlyEcho, ...paymentFields }).partial().strict().meta({ id: 'UpdatePaymentInput' });
export const listPaymentsQuery = pageQuery
  .extend({
    contractId: z.uuid().optional(),
    state: z.enum(PAYMENT_STATES).optional(),
    type: z.enum(PAYMENT_TYPES).optional(),
    dueDateFrom: calendarDate.optional(),
    dueDateTo: calendarDate.optional(),
  })
  .strict();

export const paymentView = z.object({
  id: z.uuid(),
  contractId: z.uuid(),
  amount: z.string(),
  type: z.enum(PAYMENT_TYPES),
  state: z.enum(PAYMENT_STATES),
  dueDate: z.string().meta({ format: 'date' }),
  receivedAt: z.string().nullable().meta({ format: 'date-time' }),
  paymentMethodId: z.uuid().nullable(),
  reference: z.string().nullable(),
  invoiceId: z.uuid().nullable(),
  lockedAt: z.string().nullable().meta({ format: 'date-time' }),
  ...timestamps,
}).meta({ id: 'Payment' });
export type PaymentView = z.output<typeof paymentView>;
export const paymentBatchView = z.object({ data: z.array(paymentView), total: z.number().int() }).meta({ id: 'PaymentBatch' });
