import { isInvoiceSettled, settlingInvoiceIds, type Invoice } from '../../domain/billing/invoice.js';
import type { PaymentRepository } from '../../payments/payments.repository.js';
import type { InvoiceRepository } from './invoices.repository.js';

export interface InvoiceSettlementDependencies {
  invoices: InvoiceRepository;
  payments: PaymentRepository;
}

/** The invoices whose state a settlement changed. */
export interface Settlement {
  paid: Invoice[];
  reopened: Invoice[];
}

/**
 * Works out again whether the issued invoices that payments naming these invoices settle are paid
 * (`isInvoiceSettled`): those invoices themselves, and for a cancelled one its credit note, which the
 * cancelled invoice's payments settle or help settle. An issued invoice that is settled becomes
 * `paid`. A paid one that no longer is becomes `issued` again when `reopen` is given (a payment that
 * settled it failed), and always for a credit note: a payment or refund still under way on the
 * invoice it cancels may bring in money that must be paid back, or pay out a credit to be asked
 * back. The payments are read under the lock of the invoices they name, and the invoices after it,
 * so that two payments of one invoice recorded at once each see the other.
 */
export async function settleInvoices(deps: InvoiceSettlementDependencies, accountId: string, invoiceIds: readonly string[], now: Date, reopen: boolean): Promise<Settlement> {
  const settlement: Settlement = { paid: [], reopened: [] };
  if (invoiceIds.length === 0) return settlement;
  const named = await deps.invoices.findByIds(accountId, invoiceIds);
  const creditNotes = await deps.invoices.creditNotesOf(accountId, named.filter((invoice) => invoice.state === 'cancelled'));
  const candidates = [...new Map([...named, ...creditNotes].map((invoice) => [invoice.id, invoice])).values()];
  if (candidates.length === 0) return settlement;
  const payments = await deps.payments.findByLockedInvoices(accountId, candidates.flatMap(settlingInvoiceIds));
  // Another transaction may have settled them before the locks were this one's.
  const stored = await deps.invoices.findStoredByIds(accountId, candidates.map((invoice) => invoice.id));
  const isCancellation = (invoice: Invoice) => invoice.cancelsInvoiceId !== null;
  for (const invoice of stored.filter((i) => i.state === 'issued' || (i.state === 'paid' && (reopen || isCancellation(i))))) {
    const ids = settlingInvoiceIds(invoice);
    const settled = isInvoiceSettled(invoice, payments.filter((payment) => payment.invoiceId !== null && ids.includes(payment.invoiceId)));
    if (settled && invoice.markPaid(now).ok) settlement.paid.push(invoice);
    else if (!settled && invoice.reopen(now).ok) settlement.reopened.push(invoice);
  }
  return settlement;
}
