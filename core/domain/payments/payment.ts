export const PAYMENT_TYPES = ['prepayment', 'payment', 'refund'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];
/** `submitted`: in a SEPA payment run, sent to the bank; only payment runs set it. */
export const PAYMENT_STATES = ['pending', 'submitted', 'received', 'failed'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

export class Payment {
  id!: string;
  accountId!: string;
  contractId!: string;
  /** Cents, positive. */
  amount!: bigint;
  type!: PaymentType;
  state!: PaymentState;
  dueDate!: string;
  receivedAt!: Date | null;
  paymentMethodId!: string | null;
  reference!: string | null;
  /** The issued invoice this payment settles (bill runs). */
  invoiceId!: string | null;
  /** Set by the system when an invoice takes the payment into account; a locked payment is immutable but for a return (received → failed). */
  lockedAt!: Date | null;
  /**
   * The failed payment this one makes due again (`replacementOf`), the first of a chain of returns;
   * null for any other. A prepayment replacing one an invoice deducted is never deducted again.
   */
  replacesPaymentId!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
}

/** What the system asks of a new pending payment; the rest it starts with. */
export type PendingPaymentFields = Pick<Payment, 'id' | 'accountId' | 'contractId' | 'amount' | 'type' | 'dueDate' | 'paymentMethodId' | 'reference' | 'invoiceId'> &
  Partial<Pick<Payment, 'replacesPaymentId'>>;

/** A payment the system creates (a refund, a replacement): pending, not received, not locked. */
export function pendingPayment(fields: PendingPaymentFields, now: Date): Payment {
  return Object.assign(new Payment(), { replacesPaymentId: null, ...fields, state: 'pending', receivedAt: null, lockedAt: null, createdAt: now, updatedAt: now } satisfies Payment);
}

/**
 * Whether a payment is its contract's one prepayment of its due date: a failed prepayment stays as
 * history and leaves the date to the prepayment that replaces it.
 */
export const holdsPrepaymentDueDate = (payment: { type: PaymentType; state: PaymentState }): boolean => payment.type === 'prepayment' && payment.state !== 'failed';

/** Pending → submitted: a payment run put it in its file. False, changing nothing, from any other state. */
export function submitPayment(payment: Payment, now: Date): boolean {
  if (payment.state !== 'pending') return false;
  payment.state = 'submitted';
  payment.updatedAt = now;
  return true;
}

/** Submitted → pending: its run was cancelled before the bank had an outcome. False, changing nothing, from any other state. */
export function withdrawPayment(payment: Payment, now: Date): boolean {
  if (payment.state !== 'submitted') return false;
  payment.state = 'pending';
  payment.updatedAt = now;
  return true;
}

/**
 * Takes `amount` off pending payments, the latest first: one left with nothing is `failed` (it will
 * not be made), another keeps the rest. Submitted and received payments are beyond recall and not
 * touched. Answers the payments it changed.
 */
export function takeOffPending(payments: readonly Payment[], amount: bigint, now: Date): Payment[] {
  const latestFirst = payments.filter((p) => p.state === 'pending').sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  const changed: Payment[] = [];
  let left = amount;
  for (const payment of latestFirst) {
    if (left <= 0n) break;
    if (payment.amount <= left) {
      left -= payment.amount;
      payment.state = 'failed';
    } else {
      payment.amount -= left;
      left = 0n;
    }
    payment.updatedAt = now;
    changed.push(payment);
  }
  return changed;
}
