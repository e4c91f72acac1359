import { describe, expect, it } from 'vitest';
import { isSettled, refundOwed } from '../../../core/domain/billing/invoice.js';

const payment = (type: string, state: string, amount: bigint) => ({ type, state, amount });

describe('what an invoice owes the customer back', () => {
  it('is the credit of an invoice whose amount due is negative, less the refunds under way or paid out', () => {
    expect(refundOwed({ state: 'issued', amountDue: -5_000n }, [])).toBe(5_000n);
    expect(refundOwed({ state: 'issued', amountDue: -5_000n }, [payment('refund', 'failed', 5_000n)])).toBe(5_000n);
    for (const state of ['pending', 'submitted', 'received']) expect(refundOwed({ state: 'issued', amountDue: -5_000n }, [payment('refund', state, 5_000n)]), state).toBe(0n);
    expect(refundOwed({ state: 'issued', amountDue: -5_000n }, [payment('refund', 'received', 2_000n)])).toBe(3_000n);
    expect(refundOwed({ state: 'issued', amountDue: 5_000n }, [])).toBe(0n);
  });

  it('is what was received towards a cancelled invoice, never for one nobody paid', () => {
    const paid = [payment('payment', 'received', 4_000n), payment('payment', 'pending', 3_000n), payment('payment', 'failed', 2_000n), payment('prepayment', 'received', 1_000n)];
    expect(refundOwed({ state: 'cancelled', amountDue: 10_000n }, paid)).toBe(4_000n);
    expect(refundOwed({ state: 'cancelled', amountDue: 10_000n }, [...paid, payment('refund', 'pending', 4_000n)])).toBe(0n);
    expect(refundOwed({ state: 'cancelled', amountDue: 10_000n }, [])).toBe(0n);
    // A cancelled credit: its refund was under way, nothing more is owed.
    expect(refundOwed({ state: 'cancelled', amountDue: -5_000n }, [payment('refund', 'pending', 5_000n)])).toBe(0n);
  });

  it('settles a credit once its refund is received', () => {
    expect(isSettled(-5_000n, [payment('refund', 'pending', 5_000n)])).toBe(false);
    expect(isSettled(-5_000n, [payment('refund', 'received', 5_000n)])).toBe(true);
  });
});
