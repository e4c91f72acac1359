import type { Address } from '../../domain/addresses/address.js';

/*
 * What a SEPA file says, before it is written as pain.008.001.08 (direct debits) or
 * pain.001.001.09 (credit transfers). Amounts are integer euro cents; dates are `YYYY-MM-DD`.
 * Texts may hold any characters: the writers bring them into the SEPA character set.
 */

export interface SepaParty {
  name: string;
  /** Electronic form, e.g. DE89370400440532013000. */
  iban: string;
  bic: string | null;
  address: Address | null;
}

export interface SepaDirectDebit {
  endToEndId: string;
  /** Cents, > 0. */
  amount: bigint;
  mandateId: string;
  mandateSignedAt: string;
  sequenceType: 'FRST' | 'RCUR';
  debtor: SepaParty;
  remittance: string;
}

export interface SepaDirectDebitDocument {
  messageId: string;
  createdAt: Date;
  collectionDate: string;
  creditor: SepaParty;
  /** SEPA creditor identifier, e.g. DE98ZZZ09999999999. */
  creditorId: string;
  transactions: readonly SepaDirectDebit[];
}

export interface SepaCreditTransfer {
  endToEndId: string;
  /** Cents, > 0. */
  amount: bigint;
  creditor: SepaParty;
  remittance: string;
}

export interface SepaCreditTransferDocument {
  messageId: string;
  createdAt: Date;
  executionDate: string;
  debtor: SepaParty;
  transactions: readonly SepaCreditTransfer[];
}
