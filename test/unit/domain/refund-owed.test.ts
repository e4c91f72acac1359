import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCancellationSettled, isInvoiceSettled, isSettled, paymentTargetRefusal, refundExcess, refundOwed, settlingInvoiceId } from '../../../core/domain/billing/invoice.js';
import { Payment, takeOffPending, type PaymentState } from '../../../core/domain/payments/payment.js';

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

describe('what the refunds under way on an invoice exceed what is owed', () => {
  it('is what a returned payment had been refunded with, nothing while the payments stand', () => {
    const refunded = [payment('payment', 'failed', 4_000n), payment('refund', 'pending', 4_000n)];
    expect(refundExcess({ state: 'cancelled', amountDue: 10_000n }, refunded)).toBe(4_000n);
    expect(refundExcess({ state: 'cancelled', amountDue: 10_000n }, [payment('payment', 'received', 4_000n), payment('refund', 'pending', 4_000n)])).toBe(0n);
    // One of two payments returned: the refund of the other stands.
    const partly = [payment('payment', 'received', 3_000n), payment('payment', 'failed', 1_000n), payment('refund', 'submitted', 2_000n), payment('refund', 'pending', 2_000n)];
    expect(refundExcess({ state: 'cancelled', amountDue: 10_000n }, partly)).toBe(1_000n);
    // A failed refund is under way no more.
    expect(refundExcess({ state: 'cancelled', amountDue: 10_000n }, [payment('refund', 'failed', 4_000n)])).toBe(0n);
  });

  it('leaves the refund of a credit alone, before and after the invoice is cancelled (its credit note asks the credit back)', () => {
    for (const state of ['issued', 'cancelled'] as const) {
      expect(refundExcess({ state, amountDue: -5_000n }, [payment('refund', 'pending', 5_000n)]), state).toBe(0n);
      expect(refundExcess({ state, amountDue: -5_000n }, [payment('refund', 'received', 5_000n), payment('refund', 'pending', 5_000n)]), state).toBe(5_000n);
    }
    expect(refundOwed({ state: 'cancelled', amountDue: -5_000n }, [payment('payment', 'received', 1_000n), payment('refund', 'pending', 5_000n)])).toBe(1_000n);
  });

  it('is never due beside a refund owed, and nothing is either once the owed is staged and the excess taken off pending refunds', () => {
    const states = ['pending', 'submitted', 'received', 'failed'] as const;
    const arbitraryPayment = fc.record({ type: fc.constantFrom('payment', 'refund', 'prepayment'), state: fc.constantFrom(...states), amount: fc.bigInt({ min: 1n, max: 50_000n }) });
    fc.assert(
      fc.property(fc.constantFrom('issued', 'paid', 'cancelled'), fc.bigInt({ min: -50_000n, max: 50_000n }), fc.array(arbitraryPayment, { maxLength: 8 }), (state, amountDue, drawn) => {
        const invoice = { state, amountDue };
        // Only pending refunds can be taken back; the property holds where nothing else is under way.
        const payments = drawn.filter((p) => p.type !== 'refund' || p.state === 'pending' || p.state === 'failed');
        const owed = refundOwed(invoice, payments);
        const excess = refundExcess(invoice, payments);
        expect(owed === 0n || excess === 0n).toBe(true);
        const refunds = payments.map((p, i) => Object.assign(new Payment(), { ...p, id: `p${i}`, createdAt: new Date(i * 1000) }));
        if (owed > 0n) refunds.push(Object.assign(new Payment(), { type: 'refund', state: 'pending', amount: owed, id: 'new', createdAt: new Date(1e9) }));
        takeOffPending(refunds.filter((p) => p.type === 'refund'), excess, new Date());
        expect([refundOwed(invoice, refunds), refundExcess(invoice, refunds)]).toEqual([0n, 0n]);
      }),
    );
  });
});

describe('settling a credit note that cancels an invoice', () => {
  const creditNote = (amountDue: bigint) => ({ id: 'cn', kind: 'credit_note' as const, amountDue, cancelsInvoiceId: 'inv' });

  it('is settled by the cancelled invoice when it asks nothing of the customer, by itself when it asks the credit back', () => {
    expect(settlingInvoiceId(creditNote(-1_428n))).toBe('inv');
    expect(settlingInvoiceId(creditNote(0n))).toBe('inv');
    expect(settlingInvoiceId(creditNote(3_572n))).toBe('cn');
    expect(settlingInvoiceId({ id: 'inv', kind: 'invoice', amountDue: -3_572n, cancelsInvoiceId: null })).toBe('inv');
    // Its own payments: a positive credit note is paid by a received payment naming it.
    expect(isInvoiceSettled(creditNote(3_572n), [payment('payment', 'received', 3_572n)])).toBe(true);
    expect(isInvoiceSettled(creditNote(3_572n), [])).toBe(false);
  });

  it.each([
    ['nothing paid', [], true],
    ['a received payment not yet refunded', [payment('payment', 'received', 1_000n)], false],
    ['its refund pending', [payment('payment', 'received', 1_000n), payment('refund', 'pending', 1_000n)], false],
    ['its refund in a payment run', [payment('payment', 'received', 1_000n), payment('refund', 'submitted', 1_000n)], false],
    ['its refund received', [payment('payment', 'received', 1_000n), payment('refund', 'received', 1_000n)], true],
    ['a bounced refund and its pending replacement', [payment('payment', 'received', 1_000n), payment('refund', 'failed', 1_000n), payment('refund', 'pending', 1_000n)], false],
    ['a debit in a payment run', [payment('payment', 'submitted', 1_428n)], false],
    ['a debit returned by the bank', [payment('payment', 'failed', 1_428n)], true],
    ['a returned payment whose refund was withdrawn', [payment('payment', 'failed', 1_000n), payment('refund', 'failed', 1_000n)], true],
    ['a payment recorded as still expected, which need not be paid any more', [payment('payment', 'pending', 428n)], true],
    ['a refund paid out beyond what arrived (what it exceeds by is owed apart)', [payment('payment', 'failed', 1_000n), payment('refund', 'received', 1_000n)], true],
  ] as const)('with %s: %s', (_, payments, settled) => {
    expect(isCancellationSettled(payments)).toBe(settled);
    expect(isInvoiceSettled(creditNote(-1_428n), payments)).toBe(settled);
  });

  it('is named by payments when it asks a credit back, like an issued or paid invoice, and never otherwise', () => {
    const document = (kind: 'invoice' | 'credit_note', state: 'draft' | 'issued' | 'paid' | 'cancelled', amountDue: bigint) => ({ id: 'x', kind, state, amountDue, cancelsInvoiceId: kind === 'credit_note' ? 'inv' : null });
    for (const state of ['issued', 'paid'] as const) {
      expect(paymentTargetRefusal(document('invoice', state, 1_428n)), state).toBeNull();
      expect(paymentTargetRefusal(document('invoice', state, -1_428n)), state).toBeNull();
      expect(paymentTargetRefusal(document('credit_note', state, 3_572n)), state).toBeNull();
      expect(paymentTargetRefusal(document('credit_note', state, -1_428n)), state).toMatch(/^Credit note x asks nothing of the customer: the payments of invoice inv/);
      expect(paymentTargetRefusal(document('credit_note', state, 0n)), state).toMatch(/^Credit note x asks nothing/);
    }
    expect(paymentTargetRefusal(document('invoice', 'draft', 1_428n))).toBe('Invoice x is draft; payments settle issued invoices.');
    expect(paymentTargetRefusal(document('invoice', 'cancelled', 1_428n))).toBe('Invoice x is cancelled; payments settle issued invoices.');
  });

  it('is settled exactly when nothing is under way on the cancelled invoice and nothing is owed back on it', () => {
    const arbitraryPayment = fc.record({ type: fc.constantFrom('payment', 'refund'), state: fc.constantFrom('pending', 'submitted', 'received', 'failed'), amount: fc.bigInt({ min: 1n, max: 50_000n }) });
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 50_000n }), fc.array(arbitraryPayment, { maxLength: 8 }), (amountDue, payments) => {
        const underWay = payments.some((p) => p.state === 'submitted' || (p.type === 'refund' && p.state === 'pending'));
        const cancelled = { state: 'cancelled' as const, amountDue };
        expect(isInvoiceSettled(creditNote(-amountDue), payments)).toBe(!underWay && refundOwed(cancelled, payments) === 0n);
      }),
    );
  });
});

describe('taking an amount off pending payments', () => {
  const pendingAt = (id: string, amount: bigint, state: PaymentState = 'pending', at = 0) => Object.assign(new Payment(), { id, amount, state, createdAt: new Date(at), updatedAt: new Date(0) });

  it('cuts the latest first, fails the ones left with nothing, and leaves submitted and received ones alone', () => {
    const now = new Date('2026-11-28T10:00:00Z');
    const payments = [pendingAt('a', 3_000n, 'pending', 1), pendingAt('b', 2_000n, 'pending', 2), pendingAt('c', 5_000n, 'submitted', 3), pendingAt('d', 1_000n, 'received', 4)];
    expect(takeOffPending(payments, 2_500n, now).map((p) => p.id)).toEqual(['b', 'a']);
    expect(payments.map((p) => [p.id, p.state, p.amount, p.updatedAt.getTime() === now.getTime()])).toEqual([
      ['a', 'pending', 2_500n, true],
      ['b', 'failed', 2_000n, true],
      ['c', 'submitted', 5_000n, false],
      ['d', 'received', 1_000n, false],
    ]);
    expect(takeOffPending(payments, 0n, now)).toEqual([]);
    expect(takeOffPending(payments, 9_000n, now).map((p) => [p.id, p.state])).toEqual([['a', 'failed']]);
  });
});
