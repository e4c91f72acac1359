import type { Invoice } from './invoice.js';
import type { Cents } from './money.js';

/*
 * What payments naming an invoice do to it: whether they settle it, what a credit note that cancels
 * it asks back, and what refunds the customer is owed.
 */

/** A payment naming an invoice, as far as settling it goes. */
type Settling = { type: string; state: string; amount: bigint };

const sumOf = (payments: readonly Settling[], type: string, states: readonly string[]): bigint =>
  payments.filter((p) => p.type === type && states.includes(p.state)).reduce((total, p) => total + p.amount, 0n);

/**
 * Whether received payments naming an invoice cover what it asks for: payments
 * cover a positive amount due, refunds a negative one (a credit to the customer).
 */
export function isSettled(amountDue: bigint, payments: readonly Settling[]): boolean {
  const received = sumOf(payments, amountDue >= 0n ? 'payment' : 'refund', ['received']);
  return received >= (amountDue >= 0n ? amountDue : -amountDue);
}

type Cancellation = Pick<Invoice, 'id' | 'kind' | 'cancelsInvoiceId'>;

/**
 * Whether a document is a credit note that cancels an invoice (a Stornorechnung). It takes back what
 * the cancelled invoice asked or gave: what the customer never paid is no longer owed, what they
 * paid is refunded by refunds naming the cancelled invoice (they carry the credit note's number), a
 * credit not yet paid out is withdrawn, and what they got back beyond what they paid (a credit paid
 * out, a refund of a payment the bank then returned) is asked back by payments naming the credit note.
 */
const isCancellationNote = (invoice: Cancellation): boolean => invoice.kind === 'credit_note' && invoice.cancelsInvoiceId !== null;

/**
 * The invoices whose payments settle an issued invoice or credit note (`isInvoiceSettled`): its own,
 * and for a credit note that cancels an invoice also the cancelled invoice's.
 */
export function settlingInvoiceIds(invoice: Cancellation): string[] {
  return isCancellationNote(invoice) ? [invoice.id, invoice.cancelsInvoiceId!] : [invoice.id];
}

/**
 * What the customer got back on a cancelled invoice beyond what they paid towards it (received
 * refunds less received payments; zero when not more): the credit paid out of a cancelled credit,
 * or a refund paid out for a payment the bank returned after. The credit note asks it back. A refund
 * in a payment run counts once it has arrived.
 */
export function toRecover(cancelledPayments: readonly Settling[]): Cents {
  const beyond = sumOf(cancelledPayments, 'refund', ['received']) - sumOf(cancelledPayments, 'payment', ['received']);
  return beyond > 0n ? beyond : 0n;
}

/**
 * Whether a credit note that cancels an invoice is settled, given the payments naming the cancelled
 * invoice and its own: nothing is under way on the cancelled invoice (no refund pending or in a
 * payment run, no payment in a payment run, whose outcome may yet move money), what was received
 * towards it has been paid back by received refunds, and what the customer got back beyond that
 * (`toRecover`) has come back through received payments naming the credit note. A credit note of an
 * invoice nobody paid anything towards, or of a credit never paid out, is settled at once.
 */
export function isCancellationSettled(cancelled: readonly Settling[], own: readonly Settling[]): boolean {
  if (cancelled.some((p) => p.state === 'submitted' || (p.type === 'refund' && p.state === 'pending'))) return false;
  const refunded = sumOf(cancelled, 'refund', ['received']) - sumOf(cancelled, 'payment', ['received']);
  return refunded >= 0n && sumOf(own, 'payment', ['received']) >= refunded;
}

/**
 * Whether an issued invoice or credit note is settled, given the payments naming its
 * `settlingInvoiceIds`: an invoice by its own received payments (`isSettled`), a credit note that
 * cancels an invoice with the cancelled invoice's (`isCancellationSettled`).
 */
export function isInvoiceSettled(invoice: Cancellation & Pick<Invoice, 'amountDue'>, payments: ReadonlyArray<Settling & { invoiceId: string | null }>): boolean {
  const own = payments.filter((p) => p.invoiceId === invoice.id);
  if (!isCancellationNote(invoice)) return isSettled(invoice.amountDue, own);
  return isCancellationSettled(payments.filter((p) => p.invoiceId === invoice.cancelsInvoiceId), own);
}

/**
 * Why a payment of `type` may not come to name this invoice, or null when it may: an issued or paid
 * document. A refund may not name a credit note that cancels an invoice and credits the customer
 * (an amount due of zero or less): what it pays back is refunded by refunds naming the cancelled
 * invoice, which settle it.
 */
export function paymentTargetRefusal(invoice: Pick<Invoice, 'id' | 'kind' | 'state' | 'amountDue' | 'cancelsInvoiceId'>, type: string): string | null {
  if (invoice.state !== 'issued' && invoice.state !== 'paid') return `${invoice.kind === 'invoice' ? 'Invoice' : 'Credit note'} ${invoice.id} is ${invoice.state}; payments settle issued invoices.`;
  if (type === 'refund' && isCancellationNote(invoice) && invoice.amountDue <= 0n) {
    return `Credit note ${invoice.id} pays back through refunds naming invoice ${invoice.cancelsInvoiceId}, which it cancels; name that invoice.`;
  }
  return null;
}

/** Refunds paid out or under way: pending, in a payment run, or received by the customer. */
const REFUNDS_UNDER_WAY = ['pending', 'submitted', 'received'] as const;

/**
 * What the customer has to get back on an invoice, refunds aside: what they paid towards it
 * (received payments) less what it asks. A cancelled invoice asks nothing and gives nothing: the
 * refund of a cancelled credit not yet paid out is withdrawn, and what was paid out of it its credit
 * note asks back (`toRecover`).
 */
function repayable(invoice: Pick<Invoice, 'state' | 'amountDue'>, payments: readonly Settling[]): bigint {
  return sumOf(payments, 'payment', ['received']) - (invoice.state === 'cancelled' ? 0n : invoice.amountDue);
}

/**
 * What the customer is owed back on an invoice: what they have to get back (`repayable`) less the
 * refunds already paid out or under way (pending, submitted or received). Zero when nothing is owed.
 */
export function refundOwed(invoice: Pick<Invoice, 'state' | 'amountDue'>, payments: readonly Settling[]): Cents {
  const owed = repayable(invoice, payments) - sumOf(payments, 'refund', REFUNDS_UNDER_WAY);
  return owed > 0n ? owed : 0n;
}

/**
 * What the refunds under way on an invoice exceed what the customer is owed back: the part of them
 * that would pay out money never received (a payment they pay back was returned by the bank after
 * the refund was made) or a credit no longer given (the credit invoice was cancelled). Zero when they
 * do not exceed it.
 */
export function refundExcess(invoice: Pick<Invoice, 'state' | 'amountDue'>, payments: readonly Settling[]): Cents {
  const owed = repayable(invoice, payments);
  const excess = sumOf(payments, 'refund', REFUNDS_UNDER_WAY) - (owed > 0n ? owed : 0n);
  return excess > 0n ? excess : 0n;
}
