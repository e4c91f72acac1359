import { randomUUID } from 'node:crypto';
import type { Actor } from '../../auth/actor.js';
import type { Clock } from '../../clock.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { listPage, loadOwned, type ListResult, type ResourceService } from '../../resource.service.js';
import type { UnitOfWork } from '../../unit-of-work.js';
import { parseInput } from '../../validation.js';
import { eInvoiceQuery, listInvoicesQuery, listLineItemsQuery, removedInvoiceQueryFields, removedLineItemQueryFields, type InvoiceView, type LineItemView } from './invoices.commands.js';
import { writeCii } from './e-invoice/cii.js';
import { eInvoiceViolations } from './e-invoice/e-invoice-rules.js';
import type { InvoiceDocuments } from './invoice-documents.js';
import type { InvoiceIssuer } from './invoice-issuer.js';
import { presentInvoice, presentLineItem } from './invoice-presenter.js';
import type { InvoiceRepository, LineItemRepository } from './invoices.repository.js';
import type { TemplateRepository } from '../catalogue/templates.service.js';

export interface InvoicesDependencies {
  invoices: InvoiceRepository;
  lineItems: LineItemRepository;
  templates: TemplateRepository;
  issuer: InvoiceIssuer;
  documents: InvoiceDocuments;
  uow: UnitOfWork;
  clock: Clock;
}

/** Invoices and credit notes: read, their PDFs, and cancellation by credit note. */
export class InvoicesService implements ResourceService<InvoiceView> {
  constructor(private readonly deps: InvoicesDependencies) {}

  async get(actor: Actor, id: string): Promise<InvoiceView> {
    return presentInvoice(await loadOwned(this.deps.invoices, actor, 'invoice', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<InvoiceView>> {
    return listPage(this.deps.invoices, actor, listInvoicesQuery, query, (items) => items.map(presentInvoice), removedInvoiceQueryFields);
  }

  async listByContracts(actor: Actor, contractIds: readonly string[]): Promise<InvoiceView[]> {
    return (await this.deps.invoices.findByContractIds(actor.accountId, contractIds)).map(presentInvoice);
  }

  async listByCustomers(actor: Actor, customerIds: readonly string[]): Promise<InvoiceView[]> {
    return (await this.deps.invoices.findByCustomerIds(actor.accountId, customerIds)).map(presentInvoice);
  }

  /** The PDF stored at issue (never rendered again). */
  async pdf(actor: Actor, id: string): Promise<{ number: string; content: Buffer }> {
    const invoice = await loadOwned(this.deps.invoices, actor, 'invoice', id);
    const content = invoice.number === null ? null : await this.deps.invoices.pdfOf(actor.accountId, invoice.id);
    if (!content) throw new NotFoundError('invoice PDF', id);
    return { number: invoice.number!, content };
  }

  /**
   * The EN 16931 e-invoice (CII D16B, XRechnung 3.0 CIUS unless `profile=en16931`) stored at issue
   * with the PDF, never written again. Only an invoice without one (issued before e-invoices were
   * stored, or refused by the rules at issue) gets it written on request from current data.
   * 409 invoice_not_issued for a draft, 409 e_invoice_incomplete naming the XRechnung rules the
   * data cannot meet.
   */
  async eInvoice(actor: Actor, id: string, query: unknown): Promise<{ number: string; xml: string }> {
    const { profile } = parseInput(eInvoiceQuery, query);
    const invoice = await loadOwned(this.deps.invoices, actor, 'invoice', id);
    if (invoice.number === null || invoice.issuedAt === null) throw new ConflictError('invoice_not_issued', 'A draft has no e-invoice; issue it first.');
    const stored = await this.deps.invoices.eInvoiceOf(actor.accountId, invoice.id, profile);
    if (stored !== null) return { number: invoice.number, xml: stored };
    const [entry] = await this.deps.documents.documentsOf(actor.accountId, [invoice.id]);
    if (!entry) throw new NotFoundError('invoice', id);
    const document = entry[1];
    const violations = eInvoiceViolations(document);
    if (violations.length > 0) throw new ConflictError('e_invoice_incomplete', `The e-invoice would break ${violations.join(', ')}; complete the seller profile or the customer.`);
    return { number: invoice.number, xml: writeCii(document, { profile }) };
  }

  /**
   * Cancels an issued or paid invoice: a credit note with the negated lines and its own number, the
   * deducted prepayments unlocked, a pending refund of what the customer paid towards it (a credit's
   * refund not yet paid out withdrawn instead), the period billable again. Answers the credit note.
   */
  async cancel(actor: Actor, id: string): Promise<InvoiceView> {
    const { deps } = this;
    const creditNote = await deps.uow.transactional(async () => {
      await loadOwned(deps.invoices, actor, 'invoice', id);
      const invoice = await deps.invoices.lockById(actor.accountId, id);
      if (!invoice) throw new NotFoundError('invoice', id);
      const now = deps.clock.now();
      const lines = await deps.lineItems.findByInvoiceIds(actor.accountId, [invoice.id]);
      const templateId = (await deps.templates.defaultOf(actor.accountId, 'credit_note')).id;
      const cancelled = invoice.cancel(lines, { templateId, now, newId: randomUUID });
      if (!cancelled.ok) throw new ConflictError(cancelled.refusal.code, cancelled.refusal.message);
      const credit = cancelled.value;
      deps.invoices.addAll([credit]);
      await deps.issuer.issue(actor.accountId, 'credit_note', [credit.invoice], now, actor.userId);
      const causer = { accountId: actor.accountId, userId: actor.userId };
      await deps.issuer.setPaymentLocks(causer, invoice.prepaymentIds, null, now);
      // What the customer paid towards it is refunded; a credit's refund not yet paid out is withdrawn.
      await deps.issuer.reconcileRefunds(causer, invoice.id, now);
      await deps.issuer.record(actor.accountId, 'invoice.cancelled', [invoice], actor.userId);
      // With nothing paid towards the invoice and nothing under way, its credit note is settled at once.
      await deps.issuer.settle(causer, [invoice.id], now);
      return credit.invoice;
    });
    await deps.documents.renderMissing(actor.accountId, { ids: [creditNote.id] });
    return presentInvoice(creditNote);
  }
}

/** Line items of invoices, read-only. */
export class LineItemsService implements ResourceService<LineItemView> {
  constructor(private readonly lineItems: LineItemRepository) {}

  async get(actor: Actor, id: string): Promise<LineItemView> {
    return presentLineItem(await loadOwned(this.lineItems, actor, 'line item', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<LineItemView>> {
    return listPage(this.lineItems, actor, listLineItemsQuery, query, (items) => items.map(presentLineItem), removedLineItemQueryFields);
  }

  async listByInvoices(actor: Actor, invoiceIds: readonly string[]): Promise<LineItemView[]> {
    return (await this.lineItems.findByInvoiceIds(actor.accountId, invoiceIds)).map(presentLineItem);
  }
}
