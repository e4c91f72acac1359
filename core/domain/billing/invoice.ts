import type { PriceComponentKind, PriceUnit } from './price.js';

export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];
export const INVOICE_STATES = ['draft', 'issued', 'paid', 'cancelled'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];

/** Integers as strings: hundredths of a per cent, cents. */
export interface InvoiceTax {
  taxRateId: string;
  percentage: string;
  netAmount: string;
  taxAmount: string;
}

export class Invoice {
  id!: string;
  accountId!: string;
  kind!: InvoiceKind;
  /** Null while draft. */
  number!: string | null;
  contractId!: string;
  customerId!: string;
  billRunId!: string | null;
  periodStart!: string;
  periodEnd!: string;
  state!: InvoiceState;
  /** Cents (bigint-valued strings keep 2^53 out of the way). */
  netTotal!: string;
  taxes!: InvoiceTax[];
  grossTotal!: string;
  prepaymentsTotal!: string;
  amountDue!: string;
  /** The received prepayments the draft deducted; locked when it is issued. */
  prepaymentIds!: string[];
  issuedAt!: Date | null;
  dueDate!: string | null;
  templateId!: string;
  cancelsInvoiceId!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export class LineItem {
  id!: string;
  accountId!: string;
  invoiceId!: string;
  contractId!: string;
  position!: number;
  description!: string;
  kind!: PriceComponentKind;
  /** Wh (scale 3, kWh in the API) or millionths of a month (scale 6). */
  quantity!: string;
  quantityScale!: number;
  unit!: PriceUnit;
  unitPrice!: string;
  netAmount!: string;
  taxRateId!: string;
  /** Hundredths of a per cent. */
  taxRate!: string;
  periodStart!: string;
  periodEnd!: string;
  priceComponentId!: string;
  /** The price version the line was billed at: such a price cannot change any more. */
  priceId!: string;
  meterId!: string | null;
  createdAt!: Date;
}

const NUMBER_PREFIX: Record<InvoiceKind, string> = { invoice: 'INV', credit_note: 'CN' };

/** `INV-2026-000001`: per account, kind and issue year, without gaps. */
export function invoiceNumber(kind: InvoiceKind, year: number, sequence: number): string {
  return `${NUMBER_PREFIX[kind]}-${year}-${String(sequence).padStart(6, '0')}`;
}

/** Days between issue and due date. */
export const PAYMENT_TERM_DAYS = 14;

/**
 * Whether received payments naming an invoice cover what it asks for: payments
 * cover a positive amount due, refunds a negative one (a credit to the customer).
 */
export function isSettled(amountDue: bigint, payments: readonly { type: string; state: string; amount: bigint }[]): boolean {
  const settling = amountDue >= 0n ? 'payment' : 'refund';
  const received = payments.filter((p) => p.type === settling && p.state === 'received').reduce((sum, p) => sum + p.amount, 0n);
  return received >= (amountDue >= 0n ? amountDue : -amountDue);
}
