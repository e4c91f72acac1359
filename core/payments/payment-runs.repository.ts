import type { InvoiceKind } from '../domain/billing/invoice.js';
import type { TemplateLocale } from '../domain/billing/template.js';
import type { Collectable } from '../domain/payments/payment-run-plan.js';
import type { MandateUse } from '../domain/payments/mandate-sequence.js';
import type { PaymentRun, PaymentRunItem, PaymentRunState, PaymentRunType } from '../domain/payments/payment-run.js';
import type { PaymentState } from '../domain/payments/payment.js';
import type { Page, PageQuery } from '../pagination.js';
import type { ResourceRepository } from '../resource.repository.js';

/** What a run may take, with what its remittance text and events need. */
export interface CollectableRow extends Collectable {
  siteId: string;
  contractNumber: string;
  invoiceNumber: string | null;
  dueDate: string;
  reference: string | null;
  /** Of the invoice the payment names: its kind and its template's language. */
  invoiceKind: InvoiceKind | null;
  invoiceLocale: TemplateLocale | null;
}

export interface CollectablesQuery {
  accountId: string;
  type: PaymentRunType;
  /** Inclusive. */
  dueUntil: string;
  siteIds: readonly string[] | null;
}

/** An item with its payment as it is now. */
export interface RunItemRow extends PaymentRunItem {
  paymentState: PaymentState;
  invoiceId: string | null;
}

export interface RunCounts {
  payments: number;
  submitted: number;
  received: number;
  failed: number;
}

export interface PaymentRunRepository extends ResourceRepository<PaymentRun, { state?: PaymentRunState; type?: PaymentRunType }> {
  /** Serialises creating runs in the account until the transaction ends. */
  lockCreation(accountId: string): Promise<void>;
  /** The run as stored now, its row locked until the transaction ends. */
  lockById(accountId: string, id: string): Promise<PaymentRun | null>;
  /**
   * Direct debits: pending prepayments and pending payments of issued invoices due by `dueUntil`,
   * and (no payment id) the open amount of every issued invoice due by then: amount due minus its
   * payments pending, submitted or received. The credit note of a cancelled credit too, for what its
   * PDF announces as a debit: what of the credit had reached the customer when it was issued
   * (`toRecover` of the refunds received by then). What a credit note asks back only after it was
   * issued (a refund that arrives later, a refund of a payment the bank returned later) was announced
   * by no document, and is collected once the operator records it as a pending payment.
   * Credit transfers: pending refunds. By customer, due date.
   */
  collectables(query: CollectablesQuery): Promise<CollectableRow[]>;
  /** Earlier direct debits through these payment methods in runs that were not cancelled, by mandate key. */
  mandateUses(accountId: string, paymentMethodIds: readonly string[]): Promise<Map<string, MandateUse[]>>;
  /** Written at once (one statement per chunk), not through the unit of work. */
  insertItems(items: readonly PaymentRunItem[]): Promise<void>;
  items(accountId: string, runId: string, page?: PageQuery): Promise<Page<RunItemRow>>;
  /** A page of the items of each of the runs, in file order; a run with none on that page is absent. */
  itemsOfRuns(accountId: string, runIds: readonly string[], page: PageQuery): Promise<Map<string, RunItemRow[]>>;
  counts(accountId: string, runIds: readonly string[]): Promise<Map<string, RunCounts>>;
  /** The run's items no longer hold their payments (the run closed or was cancelled). */
  release(accountId: string, runId: string): Promise<void>;
  /** The site of each contract the run pays, for events. */
  contractSites(accountId: string, runId: string): Promise<Map<string, string>>;
  /** The open runs holding any of these payments. */
  openRunsHolding(accountId: string, paymentIds: readonly string[]): Promise<PaymentRun[]>;
}
