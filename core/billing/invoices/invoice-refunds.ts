import { randomUUID } from 'node:crypto';
import { sitesOfContracts } from '../../contracts/contract-sites.js';
import type { ContractRepository } from '../../contracts/contracts.repository.js';
import type { Invoice } from '../../domain/billing/invoice.js';
import { refundExcess, refundOwed } from '../../domain/billing/invoice-payments.js';
import type { Cents } from '../../domain/billing/money.js';
import { pendingPayment, takeOffPending } from '../../domain/payments/payment.js';
import type { EventOutbox, NewEvent } from '../../events/outbox.js';
import { recordPayments } from '../../payments/payment-events.js';
import type { PaymentMethodRepository, PaymentRepository } from '../../payments/payments.repository.js';
import type { InvoiceRepository } from './invoices.repository.js';

export interface InvoiceRefundsDependencies {
  contracts: ContractRepository;
  invoices: InvoiceRepository;
  payments: PaymentRepository;
  paymentMethods: PaymentMethodRepository;
  outbox: EventOutbox;
}

/** An invoice that may owe the customer money back, and what its refund would carry. */
export interface RefundRequest {
  invoice: Invoice;
  /** What the customer sees on the payout: the number of the invoice or of its credit note. */
  reference: string;
  dueDate: string;
}

/**
 * Pays back what customers are owed on invoices (`refundOwed`): a pending refund naming each
 * invoice that owes anything, to its customer's default payment method, staged together, each
 * with its `payment.created`. Refunds already under way count, so a repeated request adds none.
 */
export async function stageRefunds(
  deps: InvoiceRefundsDependencies,
  causer: Pick<NewEvent, 'accountId' | 'userId'>,
  requests: readonly RefundRequest[],
  now: Date,
): Promise<void> {
  const { accountId } = causer;
  if (requests.length === 0) return;
  const named = await deps.payments.findByInvoiceIds(accountId, requests.map((r) => r.invoice.id));
  const owing = requests.flatMap((request) => {
    const amount = refundOwed(request.invoice, named.filter((p) => p.invoiceId === request.invoice.id));
    return amount > 0n ? [{ ...request, amount }] : [];
  });
  if (owing.length === 0) return;
  const customerIds = [...new Set(owing.map((o) => o.invoice.customerId))];
  const defaults = new Map((await deps.paymentMethods.readByCustomerIds(accountId, customerIds)).filter((m) => m.isDefault).map((m) => [m.customerId, m.id]));
  const refunds = owing.map(({ invoice, reference, dueDate, amount }) =>
    pendingPayment(
      { id: randomUUID(), accountId, contractId: invoice.contractId, amount, type: 'refund', dueDate, paymentMethodId: defaults.get(invoice.customerId) ?? null, reference, invoiceId: invoice.id },
      now,
    ),
  );
  deps.payments.addAll(refunds);
  const siteOf = await sitesOfContracts(deps.contracts, accountId, refunds.map((r) => r.contractId));
  await recordPayments(deps.outbox, causer, 'payment.created', refunds, (contractId) => siteOf.get(contractId)!);
}

/**
 * Brings what an invoice pays back in line with what its customer is owed, when it is cancelled and
 * once money naming it arrived or went back. Refunds under way beyond what is owed (a payment they
 * pay back was returned, or the credit they pay out was cancelled) are taken off its pending
 * refunds, the latest first (`takeOffPending`), each change with its `payment.updated`; refunds in
 * a payment run or paid out are beyond recall: the cancelled invoice's credit note asks back what
 * they paid out beyond what arrived (`toRecover`). What a cancelled invoice is owed beyond its
 * refunds (what was paid towards it, or a direct debit collected after it was cancelled) gets a
 * pending refund with its credit note's number and due date. An invoice that is not cancelled gets
 * no refund here: what is paid beyond it is the operator's to settle. The payments are read as
 * stored, one change at a time per invoice, so that two outcomes at once each see the other's.
 */
export async function reconcileRefunds(deps: InvoiceRefundsDependencies, causer: Pick<NewEvent, 'accountId' | 'userId'>, invoiceId: string, now: Date): Promise<void> {
  const { accountId } = causer;
  const named = await deps.payments.findByLockedInvoices(accountId, [invoiceId]);
  const [invoice] = await deps.invoices.findStoredByIds(accountId, [invoiceId]);
  if (!invoice) return;
  const excess = refundExcess(invoice, named);
  if (excess > 0n) {
    // A payment run may have taken a pending refund meanwhile: takeOffPending passes it over.
    const pending = await deps.payments.lockByIds(accountId, named.filter((p) => p.type === 'refund' && p.state === 'pending').map((p) => p.id));
    const changed = takeOffPending(pending, excess, now);
    if (changed.length === 0) return;
    const siteOf = await sitesOfContracts(deps.contracts, accountId, changed.map((p) => p.contractId));
    await recordPayments(deps.outbox, causer, 'payment.updated', changed, (contractId) => siteOf.get(contractId)!);
    return;
  }
  if (invoice.state !== 'cancelled' || refundOwed(invoice, named) === 0n) return;
  const [creditNote] = await deps.invoices.creditNotesOf(accountId, [invoice]);
  if (!creditNote) throw new Error(`Cancelled invoice ${invoice.id} has no credit note.`);
  await stageRefunds(deps, causer, [{ invoice, reference: creditNote.number!, dueDate: creditNote.dueDate! }], now);
}

/**
 * How much of a bounced refund naming an invoice is due again (the amount it had, given): all of it,
 * except on a cancelled invoice, which pays back only what its customer is still owed (`refundOwed`):
 * nothing of a credit cancelled while its refund was on the way.
 */
export async function refundDueAgain(deps: InvoiceRefundsDependencies, accountId: string, invoiceId: string, amount: Cents): Promise<Cents> {
  const named = await deps.payments.findByLockedInvoices(accountId, [invoiceId]);
  const [invoice] = await deps.invoices.findStoredByIds(accountId, [invoiceId]);
  if (!invoice || invoice.state !== 'cancelled') return amount;
  const owed = refundOwed(invoice, named);
  return owed < amount ? owed : amount;
}
