import { pendingPayment, type Payment, type PaymentState, type PaymentType } from './payment.js';

/** A requested creation or change of a payment, as its rules see it. */
export interface PaymentChange {
  /** The payment's type once changed. */
  type: PaymentType;
  /** The state it is in; null while it is being created. */
  from: PaymentState | null;
  to: PaymentState;
  lockedAt: Date | null;
  /** The fields besides `state` whose value the change alters. */
  changed: readonly string[];
}

/** What else a permitted change sets off, in the same transaction. */
export interface PaymentFollowUps {
  /** A submitted payment got the bank's answer (received or failed): its payment run may close. */
  outcome: boolean;
  /**
   * The invoices the payment was counted towards may be open again: the money did not arrive, went
   * back, or was moved (a received payment's amount, type or invoice corrected).
   */
  reopenInvoice: boolean;
  /** The amount is due again: a pending copy replaces the failed payment, which stays as history. */
  dueAgain: boolean;
  /**
   * The payment entered or left `received`, or was corrected while received: what the invoices it
   * named and names pay back is worked out again.
   */
  refundsChanged: boolean;
}

export interface PaymentRefusal {
  /** `state_not_allowed` concerns the requested `state` (400); the others the payment as it is (409). */
  code: 'state_not_allowed' | 'payment_locked' | 'payment_submitted';
  message: string;
}

export type PaymentVerdict = { ok: true; followUps: PaymentFollowUps; refusal?: never } | { ok: false; refusal: PaymentRefusal; followUps?: never };

const refused = (code: PaymentRefusal['code'], message: string): PaymentVerdict => ({ ok: false, refusal: { code, message } });

/**
 * The rules of a payment's state. `submitted` belongs to payment runs: a client neither creates a
 * payment in it nor moves one into it, and only cancelling the run returns its payments to
 * `pending`; a client records the bank's outcome (`received` or `failed`) and nothing else. A
 * locked payment (an invoice deducted it) does not change, except a return: `received` → `failed`
 * with no other field, which a direct debit allows for months after the collection. A payment
 * failing after it was submitted or received leaves the invoice it settled open again (payments,
 * refunds) and its amount due again (prepayments, refunds: a bounced payout is paid out anew, as
 * far as it is still owed).
 */
export function judgePaymentChange({ type, from, to, lockedAt, changed }: PaymentChange): PaymentVerdict {
  if (to === 'submitted' && from !== 'submitted') {
    return refused('state_not_allowed', 'submitted is set by payment runs when they take a pending payment; create or keep the payment pending.');
  }
  if (from === 'submitted' && to === 'pending') return refused('state_not_allowed', 'submitted is set by payment runs; cancel the run to return its payments to pending.');
  // receivedAt follows the state: set on receipt, cleared on failure.
  const outcomeOnly = changed.every((field) => field === 'receivedAt');
  if (lockedAt && !(from === 'received' && to === 'failed' && outcomeOnly)) {
    return refused(
      'payment_locked',
      `The payment was locked at ${lockedAt.toISOString()} by an invoice that deducted it; only its return (state received → failed, no other field) can be recorded. Record a new payment instead.`,
    );
  }
  if (from === 'submitted' && !outcomeOnly) {
    return refused('payment_submitted', 'The payment is in a payment run: only its outcome (state received or failed) can be recorded; cancel the run to change it.');
  }
  const failure = to === 'failed' && (from === 'submitted' || from === 'received');
  // Entering or leaving received moves money that invoices are settled and refunded from, and so
  // does correcting how much a received payment was, what it was, or which invoice it paid.
  const receipt = from !== null && (from === 'received') !== (to === 'received');
  const corrected = from === 'received' && to === 'received' && changed.some((field) => field === 'amount' || field === 'type' || field === 'invoiceId');
  return {
    ok: true,
    followUps: {
      outcome: from === 'submitted' && to !== 'submitted',
      reopenInvoice: (failure && type !== 'prepayment') || corrected,
      dueAgain: failure && type !== 'payment',
      refundsChanged: receipt || corrected,
    },
  };
}

/**
 * The pending payment that makes a failed one's amount due again: same contract, kind, amount, due
 * date, method, reference and invoice, and naming the payment it replaces (the first of a chain of
 * returns). While that first one stays deducted by an invoice (locked), the invoice has counted the
 * amount already: the replacement collects it, and no later invoice deducts it.
 */
export function replacementOf(failed: Payment, id: string, now: Date): Payment {
  const { accountId, contractId, amount, type, dueDate, paymentMethodId, reference, invoiceId } = failed;
  return pendingPayment({ id, accountId, contractId, amount, type, dueDate, paymentMethodId, reference, invoiceId, replacesPaymentId: failed.replacesPaymentId ?? failed.id }, now);
}
