import type { Invoice } from '../../domain/billing/invoice.js';
import { toRecover } from '../../domain/billing/invoice-payments.js';
import { formatCents } from '../../domain/billing/money.js';
import type { Payment } from '../../domain/payments/payment.js';
import { calendarDateOf } from '../../domain/time/calendar-date.js';
import type { InvoiceDocument } from './invoice-pdf-model.js';

/** The amounts of the payments that `which` picks, summed. */
const sumOf = (payments: readonly Payment[], which: (payment: Payment) => boolean) => payments.filter(which).reduce((sum, p) => sum + p.amount, 0n);

/**
 * What a credit note's document says of the invoice it cancels (`InvoiceDocument.cancels`), from the
 * payments naming that invoice as they stand when it is rendered; null for a document that cancels
 * nothing (or an invoice without a number).
 */
export function cancelledInvoiceOf(creditNote: Invoice, cancelled: Invoice | undefined, payments: readonly Payment[], timezone: string): InvoiceDocument['cancels'] {
  if (!cancelled?.number) return null;
  const ofCancelled = payments.filter((p) => p.invoiceId === cancelled.id);
  const creditCancelled = creditNote.amountDue > 0n;
  return {
    number: cancelled.number,
    issuedAt: cancelled.issuedAt && calendarDateOf(cancelled.issuedAt, timezone),
    // The refunds the cancellation made carry the credit note's number (a bounced one is made anew).
    refunded: formatCents(sumOf(ofCancelled, (p) => p.type === 'refund' && p.state !== 'failed' && p.reference === creditNote.number)),
    // Debits in a payment run: what arrives of them is refunded too.
    collecting: formatCents(sumOf(ofCancelled, (p) => p.type === 'payment' && p.state === 'submitted')),
    creditPaidOut: formatCents(creditCancelled ? toRecover(ofCancelled) : 0n),
    creditPayingOut: formatCents(creditCancelled ? sumOf(ofCancelled, (p) => p.type === 'refund' && p.state === 'submitted') : 0n),
  };
}
