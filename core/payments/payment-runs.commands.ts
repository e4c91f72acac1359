import { z } from 'zod';
import { SEQUENCE_TYPES } from '../domain/payments/mandate-sequence.js';
import { PAYMENT_RUN_STATES, PAYMENT_RUN_TYPES, SKIP_REASONS } from '../domain/payments/payment-run.js';
import { PAYMENT_STATES, PAYMENT_TYPES } from '../domain/payments/payment.js';
import { calendarDate, reference, timestamps } from '../field-formats.js';
import { pageQuery } from '../pagination.js';

export const createPaymentRunCommand = z
  .object({
    type: z.enum(PAYMENT_RUN_TYPES),
    collectionDate: calendarDate
      .optional()
      .describe('Direct debits: the collection date, a TARGET2 business day at least one business day after the file is created; credit transfers: the execution date, a TARGET2 business day from today on. Defaults to the earliest such date'),
    dueUntil: calendarDate.optional().describe('Payments due on or before this date are taken (inclusive); defaults to the collection date'),
    siteIds: z.array(reference).min(1).max(1000).optional().describe('Only contracts on these sites; all sites when left out'),
  })
  .strict()
  .meta({ id: 'CreatePaymentRunInput' });
export type CreatePaymentRunCommand = z.output<typeof createPaymentRunCommand>;

export const listPaymentRunsQuery = pageQuery.extend({ state: z.enum(PAYMENT_RUN_STATES).optional(), type: z.enum(PAYMENT_RUN_TYPES).optional() }).strict();
export const listPaymentRunItemsQuery = pageQuery;

export const paymentRunView = z.object({
  id: z.uuid(),
  type: z.enum(PAYMENT_RUN_TYPES),
  state: z.enum(PAYMENT_RUN_STATES),
  collectionDate: z.string().meta({ format: 'date' }),
  dueUntil: z.string().meta({ format: 'date' }),
  siteIds: z.array(z.uuid()).nullable().describe('null: every site of the account'),
  messageId: z.string().describe('MsgId of the file'),
  counts: z.object({
    payments: z.number().int(),
    submitted: z.number().int().describe('Awaiting an outcome'),
    received: z.number().int(),
    failed: z.number().int(),
  }),
  controlSum: z.string().describe('Sum of the payments in the file (CtrlSum)'),
  skipped: z
    .array(
      z.object({
        customerId: z.uuid(),
        reason: z.enum(SKIP_REASONS),
        message: z.string(),
        paymentIds: z.array(z.uuid()).describe('Pending payments left out; they stay pending'),
        invoiceIds: z.array(z.uuid()).describe('Invoices whose open amount was not collected'),
      }),
    )
    .describe('Customers the run could not include, and why'),
  fileUrl: z.string(),
  closedAt: z.string().nullable().meta({ format: 'date-time' }),
  cancelledAt: z.string().nullable().meta({ format: 'date-time' }),
  ...timestamps,
}).meta({ id: 'PaymentRun' });
export type PaymentRunView = z.output<typeof paymentRunView>;

export const paymentRunItemView = z.object({
  paymentId: z.uuid(),
  paymentType: z.enum(PAYMENT_TYPES),
  state: z.enum(PAYMENT_STATES).describe('The payment state now'),
  contractId: z.uuid(),
  customerId: z.uuid(),
  invoiceId: z.uuid().nullable(),
  amount: z.string(),
  paymentMethodId: z.uuid(),
  sequenceType: z.enum(SEQUENCE_TYPES).nullable().describe('Direct debits: FRST for a mandate’s first collection, RCUR after'),
  mandateReference: z.string().nullable(),
  name: z.string(),
  iban: z.string(),
  endToEndId: z.string(),
  remittance: z.string(),
}).meta({ id: 'PaymentRunItem' });
export type PaymentRunItemView = z.output<typeof paymentRunItemView>;
export const paymentRunItemsView = z.object({ data: z.array(paymentRunItemView), total: z.number().int() }).meta({ id: 'PaymentRunItemList' });
