import { z } from 'zod';
import { INVOICE_KINDS, INVOICE_STATES } from '../../domain/billing/invoice.js';
import { PRICE_COMPONENT_KINDS } from '../../domain/billing/price.js';
import { timestamps } from '../../field-formats.js';
import { pageQuery } from '../../pagination.js';

export const listInvoicesQuery = pageQuery
  .extend({
    state: z.enum(INVOICE_STATES).optional(),
    kind: z.enum(INVOICE_KINDS).optional(),
    contractId: z.uuid().optional(),
    customerId: z.uuid().optional(),
    billRunId: z.uuid().optional(),
  })
  .strict();
export const removedInvoiceQueryFields = [{ path: ['settled'], replacement: '"state" (draft, issued, paid, cancelled)' }];

export const eInvoiceQuery = z.object({ profile: z.enum(['xrechnung', 'en16931']).default('xrechnung').describe('xrechnung: XRechnung 3.0 CIUS (default); en16931: plain EN 16931') }).strict();

export const listLineItemsQuery = pageQuery.extend({ invoiceId: z.uuid().optional(), contractId: z.uuid().optional() }).strict();
export const removedLineItemQueryFields = [{ path: ['meterOwnershipId'], replacement: '"contractId" of the invoice context' }];

const taxView = z.object({ taxRateId: z.uuid(), percentage: z.string(), netAmount: z.string(), taxAmount: z.string() });

/** How an invoice's state moves, for the REST and GraphQL descriptions. */
export const INVOICE_STATE_DESCRIPTION =
  'draft -> issued -> paid (issued again when a payment that settled it fails); issued or paid -> cancelled. Paid once received payments naming it cover amountDue (received refunds a negative one), at issue when amountDue is 0. A credit note that cancels an invoice is paid once what was received towards that invoice has been refunded, what the customer got back beyond it (a credit paid out, a refund of a payment returned after) has come back through received payments naming the credit note, and nothing naming the invoice is still under way (no refund to pay out, no payment in a payment run): at once when nothing was paid and nothing paid out';

export const invoiceView = z.object({
  id: z.uuid(),
  kind: z.enum(INVOICE_KINDS),
  number: z.string().nullable().describe('INV-YYYY-000001 / CN-YYYY-000001; null while draft'),
  contractId: z.uuid(),
  customerId: z.uuid(),
  billRunId: z.uuid().nullable(),
  periodStart: z.string().meta({ format: 'date' }),
  periodEnd: z.string().meta({ format: 'date' }),
  state: z.enum(INVOICE_STATES).describe(INVOICE_STATE_DESCRIPTION),
  netTotal: z.string(),
  taxes: z.array(taxView),
  grossTotal: z.string(),
  prepaymentsTotal: z.string(),
  amountDue: z.string().describe('grossTotal - prepaymentsTotal; negative: a credit to the customer'),
  issuedAt: z.string().nullable().meta({ format: 'date-time' }),
  dueDate: z.string().nullable().meta({ format: 'date' }),
  pdfUrl: z.string().nullable(),
  templateId: z.uuid(),
  cancelsInvoiceId: z.uuid().nullable(),
  ...timestamps,
}).meta({ id: 'Invoice' });
export type InvoiceView = z.output<typeof invoiceView>;

export const lineItemView = z.object({
  id: z.uuid(),
  invoiceId: z.uuid(),
  contractId: z.uuid(),
  description: z.string(),
  kind: z.enum(PRICE_COMPONENT_KINDS),
  quantity: z.string().describe('kWh with 3 decimals, or months with 6'),
  unit: z.string(),
  unitPrice: z.string(),
  netAmount: z.string(),
  taxRateId: z.uuid(),
  taxRate: z.string(),
  periodStart: z.string().meta({ format: 'date' }),
  periodEnd: z.string().meta({ format: 'date' }),
  priceComponentId: z.uuid(),
  meterId: z.uuid().nullable(),
  createdAt: z.string().meta({ format: 'date-time' }),
}).meta({ id: 'LineItem' });
export type LineItemView = z.output<typeof lineItemView>;
