import { describe, expect, it } from 'vitest';
import { Payment, PAYMENT_STATES, PAYMENT_TYPES, type PaymentState, type PaymentType } from '../../../core/domain/payments/payment.js';
import { judgePaymentChange, replacementOf, type PaymentChange, type PaymentVerdict } from '../../../core/domain/payments/payment-outcome.js';

const LOCKED_AT = new Date('2026-11-01T00:00:00.000Z');

/** `receivedAt` follows the state: it changes exactly when the payment enters or leaves `received`. */
const stateChange = (from: PaymentState, to: PaymentState, locked: boolean, type: PaymentType = 'payment', extra: string[] = []): PaymentChange => ({
  type,
  from,
  to,
  lockedAt: locked ? LOCKED_AT : null,
  changed: [...((from === 'received') !== (to === 'received') ? ['receivedAt'] : []), ...extra],
});

/** `ok` with the follow-ups that apply, or the refusal's code. */
function summary(verdict: PaymentVerdict): string {
  if (!verdict.ok) return verdict.refusal.code;
  const followUps = Object.entries(verdict.followUps).filter(([, applies]) => applies).map(([name]) => name);
  return ['ok', ...followUps].join(' ');
}

describe('the rules of a payment state', () => {
  // [from, to, unlocked, locked] for a payment of type `payment` changing only its state.
  const table: Array<[PaymentState, PaymentState, string, string]> = [
    ['pending', 'pending', 'ok', 'payment_locked'],
    ['pending', 'submitted', 'state_not_allowed', 'state_not_allowed'],
    ['pending', 'received', 'ok refundsChanged', 'payment_locked'],
    ['pending', 'failed', 'ok', 'payment_locked'],
    ['submitted', 'pending', 'state_not_allowed', 'state_not_allowed'],
    ['submitted', 'submitted', 'ok', 'payment_locked'],
    ['submitted', 'received', 'ok outcome refundsChanged', 'payment_locked'],
    ['submitted', 'failed', 'ok outcome reopenInvoice', 'payment_locked'],
    ['received', 'pending', 'ok refundsChanged', 'payment_locked'],
    ['received', 'submitted', 'state_not_allowed', 'state_not_allowed'],
    ['received', 'received', 'ok', 'payment_locked'],
    ['received', 'failed', 'ok reopenInvoice refundsChanged', 'ok reopenInvoice refundsChanged'],
    ['failed', 'pending', 'ok', 'payment_locked'],
    ['failed', 'submitted', 'state_not_allowed', 'state_not_allowed'],
    ['failed', 'received', 'ok refundsChanged', 'payment_locked'],
    ['failed', 'failed', 'ok', 'payment_locked'],
  ];

  it.each(table)('%s → %s: %s, locked: %s', (from, to, unlocked, locked) => {
    expect(summary(judgePaymentChange(stateChange(from, to, false)))).toBe(unlocked);
    expect(summary(judgePaymentChange(stateChange(from, to, true)))).toBe(locked);
  });

  it('covers every pair of states', () => {
    const pairs = new Set(table.map(([from, to]) => `${from}/${to}`));
    for (const from of PAYMENT_STATES) for (const to of PAYMENT_STATES) expect(pairs.has(`${from}/${to}`), `${from} → ${to}`).toBe(true);
    expect(pairs.size).toBe(PAYMENT_STATES.length ** 2);
  });

  it('leaves a failure due again for prepayments and refunds, and reopens the invoice of payments and refunds', () => {
    const expected: Record<PaymentType, string> = { prepayment: 'dueAgain', payment: 'reopenInvoice', refund: 'reopenInvoice dueAgain' };
    for (const type of PAYMENT_TYPES) {
      for (const locked of [false, true]) {
        expect(summary(judgePaymentChange(stateChange('received', 'failed', locked, type))), `${type} received, locked ${locked}`).toBe(`ok ${expected[type]} refundsChanged`);
      }
      expect(summary(judgePaymentChange(stateChange('submitted', 'failed', false, type))), `${type} submitted`).toBe(`ok outcome ${expected[type]}`);
      // Nothing was collected from a pending payment: its failure sets nothing off.
      expect(summary(judgePaymentChange(stateChange('pending', 'failed', false, type))), `${type} pending`).toBe('ok');
    }
  });

  it('lets a locked payment record its return and nothing else', () => {
    expect(summary(judgePaymentChange(stateChange('received', 'failed', true, 'prepayment', ['amount'])))).toBe('payment_locked');
    expect(summary(judgePaymentChange(stateChange('received', 'received', true, 'prepayment', ['receivedAt'])))).toBe('payment_locked');
    expect(summary(judgePaymentChange(stateChange('received', 'received', true, 'prepayment', ['reference'])))).toBe('payment_locked');
    expect(summary(judgePaymentChange(stateChange('received', 'failed', false, 'prepayment', ['amount'])))).toBe('ok dueAgain refundsChanged');
  });

  it('settles and refunds again when a received payment is corrected: its amount, type or invoice', () => {
    for (const field of ['amount', 'type', 'invoiceId']) expect(summary(judgePaymentChange(stateChange('received', 'received', false, 'payment', [field]))), field).toBe('ok reopenInvoice refundsChanged');
    for (const field of ['reference', 'dueDate', 'paymentMethodId']) expect(summary(judgePaymentChange(stateChange('received', 'received', false, 'payment', [field]))), field).toBe('ok');
    // A pending payment moves no money yet.
    expect(summary(judgePaymentChange(stateChange('pending', 'pending', false, 'payment', ['amount', 'invoiceId'])))).toBe('ok');
  });

  it('lets a submitted payment record its outcome and nothing else', () => {
    expect(summary(judgePaymentChange(stateChange('submitted', 'received', false, 'payment', ['reference'])))).toBe('payment_submitted');
    expect(summary(judgePaymentChange(stateChange('submitted', 'failed', false, 'payment', ['amount'])))).toBe('payment_submitted');
    expect(summary(judgePaymentChange(stateChange('submitted', 'submitted', false, 'payment', ['dueDate'])))).toBe('payment_submitted');
  });

  it('creates a payment in any state but submitted, setting nothing off', () => {
    for (const to of PAYMENT_STATES) {
      expect(summary(judgePaymentChange({ type: 'payment', from: null, to, lockedAt: null, changed: [] })), to).toBe(to === 'submitted' ? 'state_not_allowed' : 'ok');
    }
  });

  it('answers the messages the API shows', () => {
    expect(judgePaymentChange(stateChange('submitted', 'pending', false)).refusal?.message).toBe('submitted is set by payment runs; cancel the run to return its payments to pending.');
    expect(judgePaymentChange(stateChange('pending', 'received', true)).refusal?.message).toBe(
      'The payment was locked at 2026-11-01T00:00:00.000Z by an invoice that deducted it; only its return (state received → failed, no other field) can be recorded. Record a new payment instead.',
    );
  });
});

describe('the payment that replaces a failed one', () => {
  it('is pending, unlocked and new, with what the failed one asked for', () => {
    const failed = Object.assign(new Payment(), {
      id: 'p-1',
      accountId: 'a-1',
      contractId: 'c-1',
      amount: 6_500n,
      type: 'prepayment',
      state: 'failed',
      dueDate: '2026-10-15',
      receivedAt: null,
      paymentMethodId: 'm-1',
      reference: 'LH-1',
      invoiceId: null,
      lockedAt: LOCKED_AT,
      replacesPaymentId: null,
      createdAt: new Date('2026-09-01T00:00:00.000Z'),
      updatedAt: new Date('2026-11-20T00:00:00.000Z'),
    } satisfies Payment);
    const now = new Date('2026-11-21T00:00:00.000Z');
    const replacement = replacementOf(failed, 'p-2', now);
    expect(replacement).toBeInstanceOf(Payment);
    expect({ ...replacement }).toEqual({ ...failed, id: 'p-2', state: 'pending', lockedAt: null, replacesPaymentId: 'p-1', createdAt: now, updatedAt: now });
    expect(failed.state).toBe('failed');
    // Returned again: the next one still names the first, whose deduction decides whether it is deducted.
    const again = replacementOf(Object.assign(replacement, { state: 'failed' }), 'p-3', now);
    expect({ ...again }).toEqual({ ...replacement, id: 'p-3', state: 'pending', replacesPaymentId: 'p-1' });
  });
});
