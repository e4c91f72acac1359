import type { InvoiceDocument } from '../invoice-pdf-model.js';
import { settlementOf } from '../invoice-pdf-payment.js';

/**
 * Rules of the German CIUS (XRechnung 3.0, BR-DE-*) and the CEN rules the document may lack data
 * for, which CEN's own schematron cannot check for us (KoSIT publishes the BR-DE rules only as
 * schematron sources). Answers the ids of the violated rules, empty when the e-invoice can be written.
 */
export function eInvoiceViolations(document: InvoiceDocument): string[] {
  const { seller, customer, payment } = document;
  const violations: string[] = [];
  const present = (value: string | null | undefined) => value !== null && value !== undefined && value.trim() !== '';
  // BR-CO-26: the seller is identified by a VAT id or a legal registration (the register entry).
  if (!present(seller.vatId) && !seller.register) violations.push('BR-CO-26');
  // BR-S-02: standard rated lines need the seller's VAT id or tax number.
  if (!present(seller.vatId) && !present(seller.taxNumber)) violations.push('BR-S-02');
  if (!seller.address) violations.push('BR-8');
  if (!customer.address) violations.push('BR-10');
  // BR-DE-2, -5..-7: the seller's contact (the name is the customer service, always written).
  if (!present(seller.contact.phone)) violations.push('BR-DE-6');
  if (!present(seller.contact.email)) violations.push('BR-DE-7');
  if (!present(seller.address?.locality)) violations.push('BR-DE-3');
  if (!present(seller.address?.postCode)) violations.push('BR-DE-4');
  if (!present(customer.address?.locality)) violations.push('BR-DE-8');
  if (!present(customer.address?.postCode)) violations.push('BR-DE-9');
  // BR-DE-15: the buyer reference (customer number, else contract number).
  if (!present(customer.number) && !present(document.contractNumber)) violations.push('BR-DE-15');
  // BR-DE-1 payment instructions (BG-16) are always written; BR-DE-23-a: a transfer needs the seller's IBAN (BG-17).
  // A payout names the customer's IBAN as the account when it is known, and no transfer otherwise.
  const settlement = settlementOf(document);
  if (settlement === 'transfer' && !present(seller.bankAccount?.iban)) violations.push('BR-DE-23-a');
  // BR-DE-25-a: a direct debit needs the mandate, the creditor id and the debited account (BG-19).
  if (settlement === 'sepa_direct_debit' && payment.method === 'sepa_direct_debit' && !(present(payment.mandateReference) && present(payment.creditorId) && present(payment.customerIban))) {
    violations.push('BR-DE-25-a');
  }
  return violations;
}
