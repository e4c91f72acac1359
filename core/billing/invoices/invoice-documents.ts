import type { AccountRepository } from '../../accounts/accounts.repository.js';
import type { CustomerRepository } from '../../customers/customers.repository.js';
import type { Invoice } from '../../domain/billing/invoice.js';
import type { Customer } from '../../domain/customers/customer.js';
import { calendarDateOf } from '../../domain/time/calendar-date.js';
import type { TemplateRepository } from '../catalogue/templates.service.js';
import { defaultDisputeResolution, renderInvoicePdf, type InvoiceDocument } from './invoice-pdf.js';
import { presentInvoice, presentLineItem } from './invoice-presenter.js';
import type { InvoiceRepository, LineItemRepository } from './invoices.repository.js';

export interface InvoiceDocumentsDependencies {
  accounts: AccountRepository;
  customers: CustomerRepository;
  templates: TemplateRepository;
  invoices: InvoiceRepository;
  lineItems: LineItemRepository;
}

const customerName = (customer: Customer) =>
  customer.companyName ?? ([customer.title, customer.firstName, customer.lastName].filter(Boolean).join(' ') || (customer.number ?? customer.id));

/**
 * The PDFs of issued invoices and credit notes: each assembled from what the invoice stores (its
 * lines, customer, template and the account) and rendered once, after the issuing transaction
 * commits, so that the counter row is never held while rendering; stored, never rendered again.
 */
export class InvoiceDocuments {
  constructor(private readonly deps: InvoiceDocumentsDependencies) {}

  /** Renders and stores the PDF of every issued invoice among `ids`, or of the run, that has none; answers how many. */
  async renderMissing(accountId: string, filter: { runId?: string; ids?: readonly string[] }, limit = 100): Promise<number> {
    const invoices = await this.deps.invoices.withoutPdf(accountId, filter, limit);
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
    const cancelled = new Map((await deps.invoices.findByIds(accountId, invoices.flatMap((i) => (i.cancelsInvoiceId ? [i.cancelsInvoiceId] : [])))).map((i) => [i.id, i]));
    const lines = Map.groupBy(await deps.lineItems.findByInvoiceIds(accountId, invoices.map((i) => i.id)), (line) => line.invoiceId);
    return invoices.map((invoice) => {
      const view = presentInvoice(invoice);
      const customer = customers.get(invoice.customerId)!;
      const template = templates.get(invoice.templateId)!;
      const cancelledInvoice = invoice.cancelsInvoiceId ? cancelled.get(invoice.cancelsInvoiceId) : undefined;
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
          seller: {
            name: account.companyName,
            address: null,
            vatId: null,
            taxNumber: null,
            register: null,
            managingDirectors: [],
            contact: { email: null, phone: null, website: null },
            bankAccount: null,
          },
          customer: { name: customerName(customer), number: customer.number, address: customer.address },
          contractNumber: null,
          productName: null,
          supplyAddress: null,
          template,
          cancels: cancelledInvoice?.number ? { number: cancelledInvoice.number, issuedAt: cancelledInvoice.issuedAt && calendarDateOf(cancelledInvoice.issuedAt, account.timezone) } : null,
          lines: (lines.get(invoice.id) ?? []).map(presentLineItem),
          netTotal: view.netTotal,
          taxes: view.taxes,
          grossTotal: view.grossTotal,
          prepaymentsTotal: view.prepaymentsTotal,
          prepaymentTaxes: [],
          amountDue: view.amountDue,
          payment: { method: 'transfer', customerIban: null },
          meters: [],
          priceComponents: [],
          nextPrepayments: [],
          fuelMix: null,
          cancellation: null,
          disputeResolution: defaultDisputeResolution(template.locale),
        },
      ];
    });
  }
}
