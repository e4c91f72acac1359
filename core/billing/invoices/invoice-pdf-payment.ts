import { negate, signOf, sumDecimals, type Format } from './invoice-pdf-format.js';
import type { Labels } from './invoice-pdf-labels.js';
import type { InvoiceDocument } from './invoice-pdf-model.js';

/** What the amount due is called: a credit, a cancelled credit (taken back only as far as it was paid out), or the amount to pay. */
export function amountDueLabel(document: InvoiceDocument, l: Labels): string {
  const sign = signOf(document.amountDue);
  if (sign < 0) return l.credit;
  return sign > 0 && document.cancels ? l.creditCancelled : l.amountDue;
}

/** Whether the customer is asked to pay anything by the due date. */
export function asksPayment(document: InvoiceDocument): boolean {
  return signOf(document.cancels ? document.cancels.creditPaidOut : document.amountDue) > 0;
}

/**
 * How the amount due is settled, as the e-invoice's payment instructions (BG-16) name it: by clearing
 * against the invoice a credit note cancels when no money moves at all (nothing was paid towards
 * that invoice: nothing refunded, no debit under way; or nothing of a cancelled credit was or is
 * being paid out); by a payout to the customer when the document credits them (a credit, or a
 * Stornorechnung that pays back what was paid), whatever means they pay by; otherwise by the
 * customer's mandate or a transfer, as they chose.
 */
export function settlementOf(document: InvoiceDocument): InvoiceDocument['payment']['method'] | 'clearing' | 'payout' {
  const { cancels } = document;
  const moves = cancels && [cancels.refunded, cancels.collecting, cancels.creditPaidOut, cancels.creditPayingOut].some((amount) => signOf(amount) !== 0);
  if (cancels && !moves) return 'clearing';
  return signOf(document.amountDue) < 0 ? 'payout' : document.payment.method;
}

/**
 * How the amount due is settled. A credit note that cancels an invoice pays back only what was paid
 * towards that invoice, which may be less than its credit, or nothing. One that cancels a credit asks
 * back only what of the credit reached the customer: the rest is withdrawn, and what a payment run is
 * paying out is asked back once it has arrived.
 */
export function paymentText(document: InvoiceDocument, l: Labels, f: Format): string {
  const { payment, amountDue, cancels } = document;
  const due = f.date(document.dueDate);
  const sign = signOf(amountDue);
  const refund = (amount: string) => {
    const money = f.money(amount);
    return payment.customerIban ? l.payment.creditPaidOut(money, due, f.maskedIban(payment.customerIban)) : l.payment.creditContact(money);
  };
  const collect = (amount: string) => {
    const money = f.money(amount);
    if (payment.method === 'sepa_direct_debit') {
      return l.payment.directDebit(money, due, payment.customerIban && f.maskedIban(payment.customerIban), payment.mandateReference, payment.creditorId);
    }
    const account = document.seller.bankAccount;
    return l.payment.transfer(money, due, account && l.payment.sellerAccount(account.holder, f.iban(account.iban), account.bic), document.number);
  };
  const sentences = (...parts: Array<string | false>) => parts.filter((part) => part !== false).join(' ');
  if (sign < 0 && cancels) {
    const collecting = signOf(cancels.collecting) > 0 && l.payment.collectingRefunded(f.money(cancels.collecting));
    return sentences(l.payment.cancelled(cancels.number), signOf(cancels.refunded) > 0 && refund(cancels.refunded), collecting);
  }
  if (sign === 0) return l.payment.nothingDue;
  if (sign < 0) return refund(negate(amountDue));
  if (!cancels) return collect(amountDue);
  const { creditPaidOut, creditPayingOut } = cancels;
  const notPaidOut = sumDecimals([amountDue, negate(creditPaidOut), negate(creditPayingOut)]);
  return sentences(
    l.payment.creditWithdrawn(cancels.number),
    signOf(creditPaidOut) > 0 && collect(creditPaidOut),
    signOf(notPaidOut) > 0 && l.payment.creditNotPaidOut(f.money(notPaidOut)),
    signOf(creditPayingOut) > 0 && l.payment.creditRecalled(f.money(creditPayingOut)),
  );
}
