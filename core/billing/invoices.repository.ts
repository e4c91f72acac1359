import type { BillRun, BillRunError, BillRunState, Invoice, InvoiceKind, InvoiceState, LineItem } from '../domain/billing/invoice.js';
import type { Contract } from '../domain/contracts/contract.js';
import type { ResourceRepository } from '../resource.repository.js';

export interface BillRunCounts {
  /** Contracts the run bills: those it has handled and, while creating, those still to come. */
  total: number;
  /** Contracts the run has handled so far: an invoice or an error each. */
  contracts: number;
  invoices: number;
  issued: number;
  errors: number;
}

export interface BillRunRepository extends ResourceRepository<BillRun, { state?: BillRunState }> {
  remove(run: BillRun): void;
  /**
   * The next contracts the run has not handled yet (no invoice of the run, no error on it): those
   * with a contract meter in the period, on the run's sites, site by site (a batch reads few sites).
   */
  unhandledContracts(run: BillRun, limit: number): Promise<Contract[]>;
  /** Without `total`: the caller adds the contracts still to come. */
  counts(runIds: readonly string[]): Promise<Map<string, Omit<BillRunCounts, 'total'>>>;
  /** Contracts the run bills now: in force in the period, on its sites, with a contract meter in it. */
  countBillable(run: BillRun): Promise<number>;
  errorsOf(runIds: readonly string[]): Promise<BillRunError[]>;
  /** Inserts errors; a contract that already has one on the run keeps it. */
  addErrors(errors: readonly BillRunError[]): Promise<void>;
  /** The run as stored now, its row locked until the transaction ends (state changes are checked on it). */
  lockById(accountId: string, id: string): Promise<BillRun | null>;
  /** Runs in `creating` or `completing`: what a worker (re)starts. */
  unfinished(): Promise<Pick<BillRun, 'id' | 'accountId'>[]>;
  /** Serialises creating runs in the account until the transaction ends. */
  lockCreation(accountId: string): Promise<void>;
  /** The account's runs in any state but `completed`, as stored now, oldest first. */
  notCompleted(accountId: string): Promise<BillRun[]>;
}

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
