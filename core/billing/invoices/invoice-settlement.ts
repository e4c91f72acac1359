import type { Invoice } from '../../domain/billing/invoice.js';
import { isInvoiceSettled, settlingInvoiceIds } from '../../domain/billing/invoice-payments.js';
import type { Payment } from '../../domain/payments/payment.js';
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

/** The documents whose settlement payments naming some invoices decide, and those payments. */
interface SettlementGroup {
  candidates: Invoice[];
  payments: Payment[];
}

/**
 * Locks the invoices whose payments settle the documents that payments naming these invoices may
 * settle (those invoices, and the credit note of a cancelled one, which the cancelled invoice's
 * payments settle with its own), all in one statement in the order of their ids, and reads their
 * payments. Everything that changes payments of an invoice takes these locks first, in this one
 * order, so that two changes at once to a cancelled invoice's payments and its credit note's wait
 * for each other instead of each holding one lock and waiting for the other.
 */
export async function lockSettlement(deps: InvoiceSettlementDependencies, accountId: string, invoiceIds: readonly string[]): Promise<SettlementGroup> {
  if (invoiceIds.length === 0) return { candidates: [], payments: [] };
  const named = await deps.invoices.findByIds(accountId, invoiceIds);
  const creditNotes = await deps.invoices.creditNotesOf(accountId, named.filter((invoice) => invoice.state === 'cancelled'));
  const candidates = [...new Map([...named, ...creditNotes].map((invoice) => [invoice.id, invoice])).values()];
  if (candidates.length === 0) return { candidates, payments: [] };
  return { candidates, payments: await deps.payments.findByLockedInvoices(accountId, candidates.flatMap(settlingInvoiceIds)) };
}

/**
 * Works out again whether the issued invoices that payments naming these invoices settle are paid
 * (`isInvoiceSettled`): those invoices themselves, and for a cancelled one its credit note, which the
 * cancelled invoice's payments settle or help settle. An issued invoice that is settled becomes
 * `paid`. A paid one that no longer is becomes `issued` again when `reopen` is given (a payment that
 * settled it failed), and always for a credit note: a payment or refund still under way on the
 * invoice it cancels may bring in money that must be paid back, or pay out a credit to be asked
 * back. The payments are read under the locks of `lockSettlement`, and the invoices after them, so
 * that two payments of one invoice recorded at once each see the other.
 */
export async function settleInvoices(deps: InvoiceSettlementDependencies, accountId: string, invoiceIds: readonly string[], now: Date, reopen: boolean): Promise<Settlement> {
  const settlement: Settlement = { paid: [], reopened: [] };
  const { candidates, payments } = await lockSettlement(deps, accountId, invoiceIds);
  if (candidates.length === 0) return settlement;
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
