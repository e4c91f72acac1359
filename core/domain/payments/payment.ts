export const PAYMENT_TYPES = ['prepayment', 'payment', 'refund'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];
export const PAYMENT_STATES = ['pending', 'received', 'failed'] as const;
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
  /** Set by the system when an invoice takes the payment into account; a locked payment is immutable. */
  lockedAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
}
