import type { Invoice, LineItem } from '../../domain/billing/invoice.js';
import { formatCents, formatDecimal, formatMicros } from '../../domain/billing/money.js';
import { timestampsOf } from '../../resource.service.js';
import type { InvoiceView, LineItemView } from './invoices.commands.js';

interface LineFields {
  description: string;
  kind: LineItemView['kind'];
  /** Integers in their units: 10^-quantityScale, micro-euros, cents, hundredths of a per cent. */
  quantity: bigint;
  quantityScale: number;
  unit: string;
  unitPrice: bigint;
  netAmount: bigint;
  taxRateId: string;
  taxRate: bigint;
  periodStart: string;
  periodEnd: string;
  priceComponentId: string;
  meterId: string | null;
}

export type InvoiceLineView = Omit<LineItemView, 'id' | 'invoiceId' | 'contractId' | 'createdAt'>;
export type InvoiceTaxView = InvoiceView['taxes'][number];

/** A line as the API shows it: drafts, stored line items and PDFs alike. */
export function presentLine(line: LineFields): InvoiceLineView {
  const { description, kind, unit, taxRateId, periodStart, periodEnd, priceComponentId, meterId } = line;
  return {
    description,
    kind,
    quantity: formatDecimal(line.quantity, line.quantityScale),
    unit,
    unitPrice: formatMicros(line.unitPrice),
    netAmount: formatCents(line.netAmount),
    taxRateId,
    taxRate: formatDecimal(line.taxRate, 2),
    periodStart,
    periodEnd,
    priceComponentId,
    meterId,
  };
}

export function presentTax(tax: { taxRateId: string; percentage: bigint; netAmount: bigint; taxAmount: bigint }): InvoiceTaxView {
  return { taxRateId: tax.taxRateId, percentage: formatDecimal(tax.percentage, 2), netAmount: formatCents(tax.netAmount), taxAmount: formatCents(tax.taxAmount) };
}

export function presentInvoice(invoice: Invoice): InvoiceView {
  const { id, kind, number, contractId, customerId, billRunId, periodStart, periodEnd, state, dueDate, templateId, cancelsInvoiceId } = invoice;
  return {
    id,
    kind,
    number,
    contractId,
    customerId,
    billRunId,
    periodStart,
    periodEnd,
    state,
    netTotal: formatCents(invoice.netTotal),
    taxes: invoice.taxes.map(presentTax),
    grossTotal: formatCents(invoice.grossTotal),
    prepaymentsTotal: formatCents(invoice.prepaymentsTotal),
    amountDue: formatCents(invoice.amountDue),
    issuedAt: invoice.issuedAt?.toISOString() ?? null,
    dueDate,
    pdfUrl: number === null ? null : `/v1/invoices/${id}/pdf`,
    templateId,
    cancelsInvoiceId,
    ...timestampsOf(invoice),
  };
}

export function presentLineItem(line: LineItem): LineItemView {
  return { id: line.id, invoiceId: line.invoiceId, contractId: line.contractId, ...presentLine(line), createdAt: line.createdAt.toISOString() };
}
