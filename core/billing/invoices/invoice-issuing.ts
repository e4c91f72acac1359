import type { AccountRepository } from '../../accounts/accounts.repository.js';
import type { ContractRepository } from '../../contracts/contracts.repository.js';
import type { CustomerRepository } from '../../customers/customers.repository.js';
import { invoiceNumber, PAYMENT_TERM_DAYS, type Invoice, type InvoiceKind, type LineItem } from '../../domain/billing/invoice.js';
import { formatCents, formatDecimal, formatMicros } from '../../domain/billing/money.js';
import type { Customer } from '../../domain/customers/customer.js';
import { addDays, calendarDateOf } from '../../domain/time/calendar-date.js';
import type { EventOutbox, NewEvent } from '../../events/outbox.js';
import { recordPayments } from '../../payments/payment-events.js';
import type { PaymentRepository } from '../../payments/payments.repository.js';
import { timestampsOf } from '../../resource.service.js';
import type { InvoiceView, LineItemView } from './invoices.commands.js';
import { renderInvoicePdf, type InvoiceDocument } from './invoice-pdf.js';
import type { InvoiceRepository, LineItemRepository } from './invoices.repository.js';
import type { TemplateRepository } from '../catalogue/templates.service.js';

/** The amounts of a line or a tax total: integers (bigint, or as stored, strings) in their units. */
type Units = bigint | string;

interface LineFields {
  description: string;
  kind: LineItemView['kind'];
  quantity: Units;
  quantityScale: number;
  unit: string;
  unitPrice: Units;
  netAmount: Units;
  taxRateId: string;
  taxRate: Units;
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
    quantity: formatDecimal(BigInt(line.quantity), line.quantityScale),
    unit,
    unitPrice: formatMicros(BigInt(line.unitPrice)),
    netAmount: formatCents(BigInt(line.netAmount)),
    taxRateId,
    taxRate: formatDecimal(BigInt(line.taxRate), 2),
    periodStart,
    periodEnd,
    priceComponentId,
    meterId,
  };
}

export function presentTax(tax: { taxRateId: string; percentage: Units; netAmount: Units; taxAmount: Units }): InvoiceTaxView {
  return { taxRateId: tax.taxRateId, percentage: formatDecimal(BigInt(tax.percentage), 2), netAmount: formatCents(BigInt(tax.netAmount)), taxAmount: formatCents(BigInt(tax.taxAmount)) };
}

export function presentInvoice(invoice: Invoice): InvoiceView {
  const { id, kind, number, contractId, customerId, billRunId, periodStart, periodEnd, state, dueDate, templateId, cancelsInvoiceId } = invoice;
  const cents = (value: string) => formatCents(BigInt(value));
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
    netTotal: cents(invoice.netTotal),
    taxes: invoice.taxes.map(presentTax),
    grossTotal: cents(invoice.grossTotal),
    prepaymentsTotal: cents(invoice.prepaymentsTotal),
    amountDue: cents(invoice.amountDue),
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

const customerName = (customer: Customer) =>
  customer.companyName ?? ([customer.title, customer.firstName, customer.lastName].filter(Boolean).join(' ') || (customer.number ?? customer.id));

export interface InvoiceIssuingDependencies {
  accounts: AccountRepository;
  contracts: ContractRepository;
  customers: CustomerRepository;
  templates: TemplateRepository;
  invoices: InvoiceRepository;
  lineItems: LineItemRepository;
  payments: PaymentRepository;
  outbox: EventOutbox;
}

/**
 * Issuing: numbers from the account's counter row, locked prepayments and
 * `invoice.issued` inside the caller's transaction; PDFs afterwards, outside it, so the counter row
 * is never held while rendering. Bill runs issue drafts with it, cancellation its credit notes.
 */
export class InvoiceIssuer {
  constructor(private readonly deps: InvoiceIssuingDependencies) {}

  /** Numbers and issues invoices of one account and kind (already staged in the unit of work). */
  async issue(accountId: string, kind: InvoiceKind, invoices: readonly Invoice[], now: Date, userId: string | null = null): Promise<void> {
    if (invoices.length === 0) return;
    const { timezone } = (await this.deps.accounts.findAccount(accountId))!;
    const issueDate = calendarDateOf(now, timezone);
    const year = Number(issueDate.slice(0, 4));
    const first = await this.deps.invoices.reserveNumbers(accountId, kind, year, invoices.length);
    invoices.forEach((invoice, index) => {
      Object.assign(invoice, { number: invoiceNumber(kind, year, first + index), state: 'issued', issuedAt: now, dueDate: addDays(issueDate, PAYMENT_TERM_DAYS), updatedAt: now });
    });
    if (kind === 'invoice') await this.setPaymentLocks({ accountId, userId }, invoices.flatMap((i) => i.prepaymentIds), now, now);
    await this.record(accountId, 'invoice.issued', invoices, userId);
  }

  /** Locks (or, with null, unlocks) the prepayments invoices deducted, each with its `payment.updated`. */
  async setPaymentLocks(causer: Pick<NewEvent, 'accountId' | 'userId'>, paymentIds: readonly string[], lockedAt: Date | null, now: Date): Promise<void> {
    const changed = await this.deps.invoices.setPaymentLocks(causer.accountId, paymentIds, lockedAt, now);
    if (changed.length === 0) return;
    const payments = await this.deps.payments.findByIds(causer.accountId, changed);
    const contracts = await this.deps.contracts.findByIds(causer.accountId, [...new Set(payments.map((p) => p.contractId))]);
    const siteOf = new Map(contracts.map((c) => [c.id, c.siteId]));
    await recordPayments(this.deps.outbox, causer, 'payment.updated', payments, (contractId) => siteOf.get(contractId)!);
  }

  /** `invoice.*` events, with the sites of the invoices' contracts. */
  async record(accountId: string, type: 'invoice.issued' | 'invoice.cancelled' | 'invoice.paid', invoices: readonly Invoice[], userId: string | null = null): Promise<void> {
    const contracts = await this.deps.contracts.findByIds(accountId, [...new Set(invoices.map((i) => i.contractId))]);
    const siteOf = new Map(contracts.map((c) => [c.id, c.siteId]));
    await this.deps.outbox.record(
      invoices.map((invoice) => ({ accountId, userId, type, entityId: invoice.id, data: presentInvoice(invoice), siteIds: [siteOf.get(invoice.contractId)!] })),
    );
  }

  /** Renders and stores the PDF of every issued invoice among `ids`, or of the run, that has none; answers how many. */
  async renderMissing(accountId: string, filter: { runId?: string; ids?: readonly string[] }, limit = 100): Promise<number> {
    const invoices = await this.deps.invoices.withoutPdf(filter, limit);
    if (invoices.length === 0) return 0;
    const documents = await this.documents(accountId, invoices);
    const pdfs = [];
    for (const [invoice, document] of documents) pdfs.push({ invoiceId: invoice.id, content: await renderInvoicePdf(document) });
    await this.deps.invoices.savePdfs(pdfs);
    return invoices.length;
  }

  private async documents(accountId: string, invoices: readonly Invoice[]): Promise<Array<[Invoice, InvoiceDocument]>> {
    const { deps } = this;
    const account = (await deps.accounts.findAccount(accountId))!;
    const customers = new Map((await deps.customers.findByIds(accountId, [...new Set(invoices.map((i) => i.customerId))])).map((c) => [c.id, c]));
    const templates = new Map((await deps.templates.findByIds(accountId, [...new Set(invoices.map((i) => i.templateId))])).map((t) => [t.id, t]));
    const cancelled = new Map((await deps.invoices.findByIds(accountId, invoices.flatMap((i) => (i.cancelsInvoiceId ? [i.cancelsInvoiceId] : [])))).map((i) => [i.id, i.number]));
    const lines = Map.groupBy(await deps.lineItems.findByInvoiceIds(accountId, invoices.map((i) => i.id)), (line) => line.invoiceId);
    return invoices.map((invoice) => {
      const view = presentInvoice(invoice);
      const customer = customers.get(invoice.customerId)!;
      const template = templates.get(invoice.templateId)!;
      return [
        invoice,
        {
          kind: invoice.kind,
          locale: template.locale,
          number: invoice.number!,
          issuedAt: calendarDateOf(invoice.issuedAt!, account.timezone),
          dueDate: invoice.dueDate!,
          periodStart: invoice.periodStart,
          periodEnd: invoice.periodEnd,
          currency: account.currency,
          seller: { name: account.companyName, address: null },
          customer: { name: customerName(customer), number: customer.number, address: customer.address },
          template,
          cancelsNumber: invoice.cancelsInvoiceId ? (cancelled.get(invoice.cancelsInvoiceId) ?? null) : null,
          lines: (lines.get(invoice.id) ?? []).map(presentLineItem),
          netTotal: view.netTotal,
          taxes: view.taxes,
          grossTotal: view.grossTotal,
          prepaymentsTotal: view.prepaymentsTotal,
          amountDue: view.amountDue,
        },
      ];
    });
  }
}
