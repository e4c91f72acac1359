import type { Invoice, InvoiceKind, InvoiceState, LineItem } from '../../domain/billing/invoice.js';
import type { ResourceRepository } from '../../resource.repository.js';

export interface InvoiceFilter {
  state?: InvoiceState;
  kind?: InvoiceKind;
  contractId?: string;
  customerId?: string;
  billRunId?: string;
}

export interface InvoiceRepository extends ResourceRepository<Invoice, InvoiceFilter> {
  /** The invoice as stored now, its row locked until the transaction ends. */
  lockById(accountId: string, id: string): Promise<Invoice | null>;
  /**
   * Inserts invoices with their lines, except those that would cover a day of a contract another
   * invoice (not cancelled) covers — the exclusion constraint decides; answers the ids written.
   */
  insertWithLines(invoices: readonly Invoice[], lines: readonly LineItem[]): Promise<Set<string>>;
  /** Up to `limit` drafts of the run, locked for this transaction, in id order. */
  lockDrafts(runId: string, limit: number): Promise<Invoice[]>;
  /** Writes the staged changes of these invoices now (before the transaction reads its counts). */
  flush(): Promise<void>;
  /** Reserves `count` numbers of the account, kind and year; answers the first (gap-free: the counter row is advanced in this transaction). */
  reserveNumbers(accountId: string, kind: InvoiceKind, year: number, count: number): Promise<number>;
  /** Locks (at a time) or unlocks (null) the prepayments invoices deducted; answers the ids that changed. */
  setPaymentLocks(accountId: string, paymentIds: readonly string[], lockedAt: Date | null, now: Date): Promise<string[]>;
  deleteDrafts(runId: string): Promise<number>;
  /** Issued invoices of the run (or these ids) that have no PDF yet. */
  withoutPdf(filter: { runId?: string; ids?: readonly string[] }, limit: number): Promise<Invoice[]>;
  savePdfs(pdfs: readonly { invoiceId: string; content: Buffer }[]): Promise<void>;
  pdfOf(accountId: string, invoiceId: string): Promise<Buffer | null>;
  findByContractIds(accountId: string, contractIds: readonly string[]): Promise<Invoice[]>;
  findByCustomerIds(accountId: string, customerIds: readonly string[]): Promise<Invoice[]>;
}

export interface LineItemRepository extends ResourceRepository<LineItem, { invoiceId?: string; contractId?: string }> {
  findByInvoiceIds(accountId: string, invoiceIds: readonly string[]): Promise<LineItem[]>;
}
