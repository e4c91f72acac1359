import type { Payment, PaymentState, PaymentType } from '../domain/payments/payment.js';
import type { PaymentMethod } from '../domain/payments/payment-method.js';
import type { PrepaymentAmount, PrepaymentRequest } from '../domain/payments/prepayment.js';
import type { DeletableRepository, ResourceRepository } from '../resource.repository.js';

export interface PaymentMethodRepository extends ResourceRepository<PaymentMethod, { customerId?: string }>, DeletableRepository<PaymentMethod> {
  countForCustomer(accountId: string, customerId: string): Promise<number>;
  /**
   * Makes every other payment method of the customer a non-default one, at once (one default per
   * customer is a constraint); answers the ones it changed.
   */
  clearDefault(accountId: string, customerId: string, exceptId: string, now: Date): Promise<PaymentMethod[]>;
  defaultOf(accountId: string, customerId: string): Promise<PaymentMethod | null>;
  /** The customers' payment methods, oldest first, as copies outside the unit of work: changing one writes nothing. */
  readByCustomerIds(accountId: string, customerIds: readonly string[]): Promise<PaymentMethod[]>;
}

export interface PaymentFilter {
  contractId?: string;
  state?: PaymentState;
  type?: PaymentType;
  /** Due dates in [dueDateFrom, dueDateTo). */
  dueDateFrom?: string;
  dueDateTo?: string;
}

export interface PrepaymentKey {
  contractId: string;
  dueDate: string;
}

export interface PendingPrepayment {
  id: string;
  dueDate: string;
  amount: bigint;
}

export interface EnsurePrepayments {
  accountId: string;
  contractId: string;
  paymentMethodId: string | null;
  /** The prepayments to create where the contract has none on the due date. */
  wanted: readonly PendingPrepayment[];
  /** Every due date of the request, also those with nothing to create. */
  dueDates: readonly string[];
  now: Date;
}

/** A contract and the day after which its planned prepayments are wanted. */
export interface UpcomingPrepaymentsKey {
  contractId: string;
  /** Calendar date; prepayments due on it are not upcoming. */
  after: string;
}

export interface UpcomingPrepayment extends UpcomingPrepaymentsKey {
  dueDate: string;
  /** Cents, gross. */
  amount: bigint;
}

export interface PaymentRepository extends ResourceRepository<Payment, PaymentFilter> {
  /**
   * Per key: the contract's prepayments still to collect (pending or submitted) due after `after`,
   * earliest first, at most `limit` of them — one statement for any number of keys.
   */
  upcomingPrepayments(accountId: string, keys: readonly UpcomingPrepaymentsKey[], limit: number): Promise<UpcomingPrepayment[]>;
  /** The payments naming these invoices. */
  findByInvoiceIds(accountId: string, invoiceIds: readonly string[]): Promise<Payment[]>;
  /** By due date, then creation. */
  findByContractIds(accountId: string, contractIds: readonly string[]): Promise<Payment[]>;
  /** Stages many payments; they are written together when the unit of work commits. */
  addAll(payments: readonly Payment[]): void;
  /**
   * Writes the changes staged so far, then stages these payments: a payment that replaces a failed
   * one takes the due date the failed one gives up in the one-prepayment-per-due-date index, which
   * a commit writing inserts before updates would refuse.
   */
  addAfterStaged(payments: readonly Payment[]): Promise<void>;
  /**
   * These payments as stored now, their rows locked until the transaction ends (in id order): what
   * an invoice locks or unlocks, or an update changes, changed on the loaded payments and written
   * by the unit of work.
   */
  lockByIds(accountId: string, ids: readonly string[]): Promise<Payment[]>;
  /**
   * Locks the rows of invoices (in id order) until the transaction ends and answers the payments
   * naming them as stored now: what follows from an invoice's payments (its refunds, whether it is
   * settled) is worked out one change at a time. The changes staged so far are written first, being
   * part of what is stored now. The payments are not locked (their own changes lock them first): to
   * change one, lock it (lockByIds) and look again.
   */
  findByLockedInvoices(accountId: string, invoiceIds: readonly string[]): Promise<Payment[]>;
  /**
   * Inserts the prepayments whose due date the contract has no prepayment for yet (a unique
   * constraint decides, so concurrent requests never create two). Answers the ids of the
   * contract's prepayments on all the given due dates (not the failed ones, which others replace),
   * and those of the ones it created.
   */
  ensurePrepayments(request: EnsurePrepayments): Promise<{ paymentIds: string[]; createdIds: string[] }>;
  /** Which of these (contract, due date) pairs already have a prepayment other than `exceptId` that has not failed. */
  prepaymentsDue(accountId: string, keys: readonly PrepaymentKey[], exceptId?: string): Promise<PrepaymentKey[]>;
}

export interface PrepaymentAmountRepository extends ResourceRepository<PrepaymentAmount, { contractId?: string }> {
  ofContract(accountId: string, contractId: string): Promise<PrepaymentAmount[]>;
}

export type PrepaymentRequestRepository = ResourceRepository<PrepaymentRequest, { contractId?: string }>;
