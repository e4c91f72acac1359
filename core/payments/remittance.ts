import { Format } from '../billing/invoices/invoice-pdf-format.js';
import { labels } from '../billing/invoices/invoice-pdf-labels.js';
import type { InvoiceKind } from '../domain/billing/invoice.js';
import type { TemplateLocale } from '../domain/billing/template.js';
import type { PaymentType } from '../domain/payments/payment.js';

/** What a run's payment is for, as its remittance text names it. */
export interface RemittanceSubject {
  paymentType: PaymentType;
  contractNumber: string;
  /** A prepayment's due date (YYYY-MM-DD). */
  dueDate: string;
  /** The invoice or credit note the payment settles or refunds, else the payment's own reference. */
  documentNumber: string | null;
  documentKind: InvoiceKind | null;
}

const words: Record<TemplateLocale, { prepayment: string; refund: string; contract: string }> = {
  'de-DE': { prepayment: 'Abschlag', refund: 'Erstattung', contract: 'Vertrag' },
  'en-GB': { prepayment: 'Prepayment', refund: 'Refund', contract: 'Contract' },
};

/**
 * The remittance text the payer or payee sees on the bank statement, in the language of the
 * document the payment concerns (a prepayment: of the account's default invoice template), its
 * document named as the document titles itself and dates written as it writes them; the SEPA
 * writer transliterates it and cuts it to 140 characters.
 */
export function remittanceText(subject: RemittanceSubject, locale: TemplateLocale): string {
  const l = labels[locale];
  const word = words[locale];
  const what =
    subject.paymentType === 'prepayment'
      ? [word.prepayment, new Format(l, 'EUR').date(subject.dueDate)]
      : [subject.paymentType === 'refund' ? word.refund : l.title[subject.documentKind ?? 'invoice'], subject.documentNumber];
  return [...what, word.contract, subject.contractNumber].filter((part) => part).join(' ');
}
