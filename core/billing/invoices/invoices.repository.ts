import type { Invoice, InvoiceKind, InvoiceState, InvoiceWithLines, LineItem } from '../../domain/billing/invoice.js';
import type { ResourceRepository } from '../../resource.repository.js';
import type { EInvoiceProfile } from './e-invoice/cii.js';

export type { EInvoiceProfile };

/** An e-invoice written at issue: the CII XML of one profile. */
export interface StoredEInvoice {
  invoiceId: string;
  profile: EInvoiceProfile;
  xml: string;
}

export interface InvoiceFilter {
  state?: InvoiceState;
  kind?: InvoiceKind;
  contractId?: string;
  customerId?: string;
  billRunId?: string;
}

/**
 * Invoices and their lines are written by the unit of work alone: new ones are staged here, loaded
 * ones change through their transitions, and both are written when the unit of work commits.
 */
export interface InvoiceRepository extends ResourceRepository<Invoice, InvoiceFilter> {
  /** The invoice as stored now, its row locked until the transaction ends. */
  lockById(accountId: string, id: string): Promise<Invoice | null>;
  /** These invoices as stored now (read again even when the unit of work holds them). */
  findStoredByIds(accountId: string, ids: readonly string[]): Promise<Invoice[]>;
  /** The credit notes that cancel these invoices of the account (one per cancelled invoice). */
  creditNotesOf(accountId: string, invoices: readonly Pick<Invoice, 'contractId' | 'id'>[]): Promise<Invoice[]>;
  /** Stages new invoices with their lines (written in batched inserts when the unit of work commits). */
  addAll(invoices: readonly InvoiceWithLines[]): void;
  /**
   * Writes a batch of drafts at once, without tracking them (a bill run's thousands of drafts; the
   * unit of work's change tracking cost more than the inserts). Changes to them need a fresh read.
   */
  insertDrafts(invoices: readonly InvoiceWithLines[]): Promise<void>;
  /**
   * Which of these contracts already have an invoice that is not cancelled covering a day of
   * [periodStart, periodEnd) — the rule of the exclusion constraint `invoices_one_per_contract_day`,
   * read in one statement before drafts are staged so that each such contract gets its own error
   * (the constraint stays the guard against a concurrent writer).
   */
  contractsInvoiced(accountId: string, contractIds: readonly string[], periodStart: string, periodEnd: string): Promise<Set<string>>;
  /**
   * What drafting the drafts `lockDrafts` would take now again reads: the sites of their contracts,
   * and the contract meters on those sites that are not balanced (whose measurements it reads).
   */
  draftInputs(accountId: string, runId: string, limit: number): Promise<{ siteIds: string[]; meterIds: string[] }>;
  /** Up to `limit` drafts of the run, locked for this transaction, in id order. */
  lockDrafts(accountId: string, runId: string, limit: number): Promise<Invoice[]>;
  /** Which of these drafts were marked outdated (their site balanced again over their period since they were drafted). */
  outdatedDrafts(accountId: string, invoiceIds: readonly string[]): Promise<Set<string>>;
  /** Replaces the lines of drafts drafted again (their rows change with the unit of work) and clears their outdated marks. */
  replaceDraftLines(accountId: string, invoiceIds: readonly string[], lines: readonly LineItem[]): Promise<void>;
  /** Deletes these drafts with their lines. */
  removeDrafts(accountId: string, invoiceIds: readonly string[]): Promise<void>;
  /** Reserves `count` numbers of the account, kind and year; answers the first (gap-free: the counter row is advanced in this transaction). */
  reserveNumbers(accountId: string, kind: InvoiceKind, year: number, count: number): Promise<number>;
  /** Deletes the run's drafts (with their lines); answers how many. */
  deleteDrafts(accountId: string, runId: string): Promise<number>;
  /** Issued invoices of the run (or these ids) that have no PDF yet, as copies for reading: changing one writes nothing. */
  withoutPdf(accountId: string, filter: { runId?: string; ids?: readonly string[] }, limit: number): Promise<Invoice[]>;
  savePdfs(accountId: string, pdfs: readonly { invoiceId: string; content: Buffer }[]): Promise<void>;
  pdfOf(accountId: string, invoiceId: string): Promise<Buffer | null>;
  /** Stores the e-invoices written at issue in one statement; one already stored is kept (immutable). */
  saveEInvoices(accountId: string, eInvoices: readonly StoredEInvoice[]): Promise<void>;
  /** The e-invoice of the profile stored at issue, or null (issued before they were stored, or refused by the rules then). */
  eInvoiceOf(accountId: string, invoiceId: string, profile: EInvoiceProfile): Promise<string | null>;
  findByContractIds(accountId: string, contractIds: readonly string[]): Promise<Invoice[]>;
  findByCustomerIds(accountId: string, customerIds: readonly string[]): Promise<Invoice[]>;
}

export interface LineItemRepository extends ResourceRepository<LineItem, { invoiceId?: string; contractId?: string }> {
  /** The invoices' lines by invoice and position, as copies (lines never change once written). */
  findByInvoiceIds(accountId: string, invoiceIds: readonly string[]): Promise<LineItem[]>;
}
