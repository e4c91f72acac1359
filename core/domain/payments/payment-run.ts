import type { Account } from '../accounts/account.js';
import type { Address } from '../addresses/address.js';
import { earliestCollectionDate, isTarget2BusinessDay, nextTarget2BusinessDay } from '../time/target2.js';
import type { PaymentType } from './payment.js';
import type { SequenceType } from './mandate-sequence.js';

export const PAYMENT_RUN_TYPES = ['direct_debit', 'credit_transfer'] as const;
export type PaymentRunType = (typeof PAYMENT_RUN_TYPES)[number];
/** open: the file is available and its payments are `submitted`; closed: every payment has an outcome. */
export const PAYMENT_RUN_STATES = ['open', 'closed', 'cancelled'] as const;
export type PaymentRunState = (typeof PAYMENT_RUN_STATES)[number];
export const SKIP_REASONS = ['no_payment_method', 'no_mandate', 'mandate_expired', 'no_iban'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** A customer whose payments a run could not include, and why. */
export interface SkippedCustomer {
  customerId: string;
  reason: SkipReason;
  message: string;
  /** Pending payments left out (they stay pending). */
  paymentIds: string[];
  /** Invoices whose open amount was not collected. */
  invoiceIds: string[];
}

/** The seller as the file names it, taken when the run is created (a later profile change does not alter the file). */
export interface RunSeller {
  name: string;
  iban: string;
  bic: string | null;
  address: Address | null;
  /** SEPA creditor identifier; direct debits only. */
  creditorId: string | null;
}

export type RunRefusalCode = 'payment_run_not_cancellable' | 'payment_run_not_open';
export type RunTransition = { ok: true } | { ok: false; code: RunRefusalCode; message: string };

/**
 * A SEPA payment run: open (its payments submitted to the bank) → closed once every payment has an
 * outcome, or → cancelled while none has (its payments return to pending).
 */
export class PaymentRun {
  id!: string;
  accountId!: string;
  type!: PaymentRunType;
  state!: PaymentRunState;
  /** Direct debits: the collection date; credit transfers: the requested execution date. */
  collectionDate!: string;
  /** Inclusive. */
  dueUntil!: string;
  siteIds!: string[] | null;
  seller!: RunSeller;
  paymentsCount!: number;
  /** Cents. */
  controlSum!: bigint;
  skipped!: SkippedCustomer[];
  createdAt!: Date;
  updatedAt!: Date;
  closedAt!: Date | null;
  cancelledAt!: Date | null;

  /** A new run: open, its payments about to be submitted. */
  static open(fields: Pick<PaymentRun, 'id' | 'accountId' | 'type' | 'collectionDate' | 'dueUntil' | 'siteIds' | 'seller'>, now: Date): PaymentRun {
    return Object.assign(new PaymentRun(), { ...fields, state: 'open', paymentsCount: 0, controlSum: 0n, skipped: [], createdAt: now, updatedAt: now, closedAt: null, cancelledAt: null });
  }

  /** What the run takes: its count, control sum and the customers it leaves out. */
  take(amounts: readonly bigint[], skipped: SkippedCustomer[]): void {
    this.paymentsCount = amounts.length;
    this.controlSum = amounts.reduce((sum, amount) => sum + amount, 0n);
    this.skipped = skipped;
  }

  /** Open → cancelled, only while no payment of the run has an outcome. */
  cancel(outcomes: number, now: Date): RunTransition {
    if (this.state !== 'open') return { ok: false, code: 'payment_run_not_cancellable', message: `Only an open run is cancelled; this one is ${this.state}.` };
    if (outcomes > 0) {
      return { ok: false, code: 'payment_run_not_cancellable', message: `${outcomes} payment(s) of this run already have an outcome (received or failed); the bank has the file.` };
    }
    this.state = 'cancelled';
    this.cancelledAt = now;
    this.updatedAt = now;
    return { ok: true };
  }

  /** Open → closed, once no payment of the run is still submitted. */
  close(stillSubmitted: number, now: Date): RunTransition {
    if (this.state !== 'open' || stillSubmitted > 0) return { ok: false, code: 'payment_run_not_open', message: `The run is ${this.state} with ${stillSubmitted} payment(s) awaiting an outcome.` };
    this.state = 'closed';
    this.closedAt = now;
    this.updatedAt = now;
    return { ok: true };
  }
}

/** One payment of a run, with what the file says about it (taken at creation, so the file never changes). */
export class PaymentRunItem {
  accountId!: string;
  paymentRunId!: string;
  paymentId!: string;
  /** True while the run is open: a payment is in at most one open run (a unique index on it). */
  open!: boolean;
  position!: number;
  customerId!: string;
  contractId!: string;
  paymentType!: PaymentType;
  /** Cents, positive. */
  amount!: bigint;
  paymentMethodId!: string;
  /** Direct debits only. */
  sequenceType!: SequenceType | null;
  mandateReference!: string | null;
  mandateSignedAt!: string | null;
  name!: string;
  iban!: string;
  bic!: string | null;
  address!: Address | null;
  remittance!: string;
  endToEndId!: string;
  createdAt!: Date;
}

/** The earliest date a run of this type may name: what a run without `collectionDate` takes. */
export function earliestRunDate(type: PaymentRunType, today: string): string {
  if (type === 'direct_debit') return earliestCollectionDate(today);
  return isTarget2BusinessDay(today) ? today : nextTarget2BusinessDay(today);
}

/** What is wrong with a run's date, or null: TARGET2 business days only; a direct debit at least one business day ahead. */
export function collectionDateProblem(type: PaymentRunType, date: string, today: string): string | null {
  if (!isTarget2BusinessDay(date)) return `${date} is not a TARGET2 business day (closed: weekends, 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December).`;
  if (type === 'direct_debit') {
    const earliest = earliestCollectionDate(today);
    if (date < earliest) return `A SEPA direct debit reaches the bank at least one TARGET2 business day before its collection date: ${earliest} at the earliest.`;
  } else if (date < today) return `The execution date ${date} is in the past.`;
  return null;
}

type SellerFields = Pick<Account, 'companyName' | 'address' | 'bankAccount' | 'sepaCreditorId'>;

/** The seller as a run of this type names it, or the profile fields it lacks. */
export function runSellerOf(account: SellerFields, type: PaymentRunType): { seller: RunSeller; missing?: never } | { missing: string[]; seller?: never } {
  const missing = [
    ...(account.companyName?.trim() ? [] : ['companyName']),
    ...(account.bankAccount?.iban ? [] : ['bankAccount.iban']),
    ...(type === 'direct_debit' && !account.sepaCreditorId ? ['sepaCreditorId'] : []),
  ];
  if (missing.length > 0) return { missing };
  const { bankAccount } = account;
  return {
    seller: {
      name: bankAccount!.accountHolder ?? account.companyName!,
      iban: bankAccount!.iban!,
      bic: bankAccount!.bic ?? null,
      address: account.address,
      creditorId: type === 'direct_debit' ? account.sepaCreditorId : null,
    },
  };
}
