import type { PaymentRun, PaymentRunItem } from '../domain/payments/payment-run.js';
import { compactId } from '../domain/payments/sepa-text.js';
import { writePain001 } from './sepa/pain001.js';
import { writePain008 } from './sepa/pain008.js';

/**
 * The run's SEPA file from what the run took at creation (payer, payees, mandates, texts): the
 * same bytes at every download. Direct debits: pain.008.001.08 (CORE); credit transfers:
 * pain.001.001.09.
 */
export function paymentRunFile(run: PaymentRun, items: readonly PaymentRunItem[]): string {
  const seller = { name: run.seller.name, iban: run.seller.iban, bic: run.seller.bic, address: run.seller.address };
  const party = (item: PaymentRunItem) => ({ name: item.name, iban: item.iban, bic: item.bic, address: item.address });
  const common = { messageId: compactId(run.id), createdAt: run.createdAt };
  if (run.type === 'credit_transfer') {
    return writePain001({
      ...common,
      executionDate: run.collectionDate,
      debtor: seller,
      transactions: items.map((item) => ({ endToEndId: item.endToEndId, amount: item.amount, creditor: party(item), remittance: item.remittance })),
    });
  }
  return writePain008({
    ...common,
    collectionDate: run.collectionDate,
    creditor: seller,
    creditorId: run.seller.creditorId!,
    transactions: items.map((item) => ({
      endToEndId: item.endToEndId,
      amount: item.amount,
      mandateId: item.mandateReference!,
      mandateSignedAt: item.mandateSignedAt!,
      sequenceType: item.sequenceType!,
      debtor: party(item),
      remittance: item.remittance,
    })),
  });
}
