import type { AccountRepository } from '../../accounts/accounts.repository.js';
import { sitesOfContracts } from '../../contracts/contract-sites.js';
import type { ContractRepository } from '../../contracts/contracts.repository.js';
import { numberingYear, type Invoice, type InvoiceKind } from '../../domain/billing/invoice.js';
import { isSettled } from '../../domain/billing/invoice-payments.js';
import type { Cents } from '../../domain/billing/money.js';
import type { Payment } from '../../domain/payments/payment.js';
import { calendarDateOf } from '../../domain/time/calendar-date.js';
import { ConflictError } from '../../errors.js';
import type { EventOutbox, NewEvent } from '../../events/outbox.js';
import { recordPayments } from '../../payments/payment-events.js';
import type { PaymentMethodRepository, PaymentRepository } from '../../payments/payments.repository.js';
import { presentInvoice } from './invoice-presenter.js';
import { reconcileRefunds, refundDueAgain, stageRefunds, type RefundRequest } from './invoice-refunds.js';
import { lockSettlement, settleInvoices } from './invoice-settlement.js';
import type { BillingEnergyRepository, ReceivedPrepayment } from './billing-energy.repository.js';
import type { InvoiceRepository } from './invoices.repository.js';

export interface InvoiceIssuerDependencies {
  accounts: AccountRepository;
  billingEnergy: BillingEnergyRepository;
  contracts: ContractRepository;
  invoices: InvoiceRepository;
  payments: PaymentRepository;
  paymentMethods: PaymentMethodRepository;
  outbox: EventOutbox;
}

/**
 * Issuing inside the caller's transaction: numbers from the account's counter row, the deducted
 * prepayments locked, the refunds of invoices that credit the customer, and the `invoice.*`
 * events. Bill runs issue drafts with it, cancellation its credit notes; the PDFs follow after the
 * commit (InvoiceDocuments).
 */
export class InvoiceIssuer {
  constructor(private readonly deps: InvoiceIssuerDependencies) {}

  /** Numbers and issues drafts of one account and kind (new or loaded: the unit of work writes them). */
  async issue(accountId: string, kind: InvoiceKind, invoices: readonly Invoice[], now: Date, userId: string | null = null): Promise<void> {
    if (invoices.length === 0) return;
    const other = invoices.find((invoice) => invoice.kind !== kind);
    if (other) throw new Error(`Invoice ${other.id} is a ${other.kind}, numbered apart from a ${kind}.`);
    const { timezone } = (await this.deps.accounts.findAccount(accountId))!;
    const issueDate = calendarDateOf(now, timezone);
    const first = await this.deps.invoices.reserveNumbers(accountId, kind, numberingYear(issueDate), invoices.length);
    const deducted = kind === 'invoice' ? await this.deductPrepayments(accountId, invoices) : [];
    invoices.forEach((invoice, index) => {
      const issued = invoice.issue({ sequence: first + index, issuedAt: now, issueDate });
      if (!issued.ok) throw new ConflictError(issued.refusal.code, issued.refusal.message);
    });
    if (kind === 'invoice') {
      await this.setLockedAt({ accountId, userId }, deducted, now, now);
      const credits = invoices.filter((invoice) => invoice.amountDue < 0n);
      await this.refund({ accountId, userId }, credits.map((invoice) => ({ invoice, reference: invoice.number!, dueDate: invoice.dueDate! })), now);
    }
    await this.record(accountId, 'invoice.issued', invoices, userId);
    // Nothing names an invoice before it is issued: one that asks nothing (an amount due of zero) is
    // settled at once. A cancellation's credit note is settled with the cancelled invoice's payments
    // (`settle`).
    const settled = invoices.filter((invoice) => invoice.cancelsInvoiceId === null && isSettled(invoice.amountDue, []));
    for (const invoice of settled) invoice.markPaid(now);
    if (settled.length > 0) await this.record(accountId, 'invoice.paid', settled, userId);
  }

  /**
   * Each draft deducts its contract's prepayments deductible now (`receivedPrepayments`, the rule
   * drafting applies), locked for the rest of the transaction (`deductAtIssue`); drafts of earlier
   * periods first, and one taken by a draft before it in the batch is not deductible. Answers those
   * deducted.
   */
  private async deductPrepayments(accountId: string, drafts: readonly Invoice[]): Promise<Payment[]> {
    const found: ReceivedPrepayment[] = [];
    const candidates = new Map<string, ReceivedPrepayment[]>();
    const keyOf = (contractId: string, periodEnd: string) => `${contractId}/${periodEnd}`;
    for (const [periodEnd, group] of Map.groupBy(drafts, (draft) => draft.periodEnd)) {
      const deductible = await this.deps.billingEnergy.receivedPrepayments(accountId, group.map((draft) => draft.contractId), periodEnd);
      found.push(...deductible);
      for (const [contractId, own] of Map.groupBy(deductible, (p) => p.contractId)) candidates.set(keyOf(contractId, periodEnd), own);
    }
    const locked = new Map((await this.deps.payments.lockByIds(accountId, found.map((p) => p.id))).map((payment) => [payment.id, payment]));
    const taken = new Set<string>();
    for (const draft of drafts.toSorted((a, b) => a.periodEnd.localeCompare(b.periodEnd))) {
      const own = (candidates.get(keyOf(draft.contractId, draft.periodEnd)) ?? []).flatMap(({ id }) => (locked.has(id) && !taken.has(id) ? [locked.get(id)!] : []));
      for (const { id } of draft.deductAtIssue(own)) taken.add(id);
    }
    return [...locked.values()].filter((p) => taken.has(p.id));
  }

  /**
   * Marks paid the issued invoices that payments naming these invoices now settle, and reopens paid
   * ones they no longer do (`settleInvoices`), each with its `invoice.paid` or `invoice.reopened`.
   */
  async settle(causer: Pick<NewEvent, 'accountId' | 'userId'>, invoiceIds: readonly string[], now: Date, reopen = false): Promise<void> {
    const { paid, reopened } = await settleInvoices(this.deps, causer.accountId, invoiceIds, now, reopen);
    if (paid.length > 0) await this.record(causer.accountId, 'invoice.paid', paid, causer.userId);
    if (reopened.length > 0) await this.record(causer.accountId, 'invoice.reopened', reopened, causer.userId);
  }

  /** Takes the locks that settling these invoices takes, in its order (`lockSettlement`). */
  async lockSettlement(accountId: string, invoiceIds: readonly string[]): Promise<void> {
    await lockSettlement(this.deps, accountId, invoiceIds);
  }

  /** A pending refund of what each invoice owes the customer back, if anything (`stageRefunds`). */
  refund(causer: Pick<NewEvent, 'accountId' | 'userId'>, requests: readonly RefundRequest[], now: Date): Promise<void> {
    return stageRefunds(this.deps, causer, requests, now);
  }

  /** How much of a bounced refund naming an invoice is due again (`refundDueAgain`). */
  refundDueAgain(accountId: string, invoiceId: string, amount: Cents): Promise<Cents> {
    return refundDueAgain(this.deps, accountId, invoiceId, amount);
  }

  /** Brings what an invoice pays back in line with what its customer is owed (`reconcileRefunds`). */
  reconcileRefunds(causer: Pick<NewEvent, 'accountId' | 'userId'>, invoiceId: string, now: Date): Promise<void> {
    return reconcileRefunds(this.deps, causer, invoiceId, now);
  }

  /** Locks (or, with null, unlocks) the prepayments invoices deducted, each that changes with its `payment.updated`. */
  async setPaymentLocks(causer: Pick<NewEvent, 'accountId' | 'userId'>, paymentIds: readonly string[], lockedAt: Date | null, now: Date): Promise<void> {
    if (paymentIds.length === 0) return;
    await this.setLockedAt(causer, await this.deps.payments.lockByIds(causer.accountId, paymentIds), lockedAt, now);
  }

  /** `setPaymentLocks` for payments already locked (read `FOR UPDATE`) in this transaction. */
  private async setLockedAt(causer: Pick<NewEvent, 'accountId' | 'userId'>, payments: readonly Payment[], lockedAt: Date | null, now: Date): Promise<void> {
    const changed = payments.filter((payment) => (lockedAt ? payment.lockedAt === null : payment.lockedAt !== null));
    if (changed.length === 0) return;
    for (const payment of changed) {
      payment.lockedAt = lockedAt;
      payment.updatedAt = now;
    }
    const siteOf = await sitesOfContracts(this.deps.contracts, causer.accountId, changed.map((p) => p.contractId));
    await recordPayments(this.deps.outbox, causer, 'payment.updated', changed, (contractId) => siteOf.get(contractId)!);
  }

  /** `invoice.*` events, with the sites of the invoices' contracts. */
  async record(accountId: string, type: 'invoice.issued' | 'invoice.cancelled' | 'invoice.paid' | 'invoice.reopened', invoices: readonly Invoice[], userId: string | null = null): Promise<void> {
    const siteOf = await sitesOfContracts(this.deps.contracts, accountId, invoices.map((i) => i.contractId));
    await this.deps.outbox.record(
      invoices.map((invoice) => ({ accountId, userId, type, entityId: invoice.id, data: presentInvoice(invoice), siteIds: [siteOf.get(invoice.contractId)!] })),
    );
  }
}
