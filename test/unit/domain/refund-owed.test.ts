import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCancellationSettled, isInvoiceSettled, isSettled, paymentTargetRefusal, refundExcess, refundOwed, settlingInvoiceIds, toRecover } from '../../../core/domain/billing/invoice-payments.js';
import { Payment, takeOffPending, type PaymentState } from '../../../core/domain/payments/payment.js';

const payment = (type: string, state: string, amount: bigint, invoiceId = 'inv') => ({ type, state, amount, invoiceId });

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

  it('leaves the refund of a credit alone while the credit stands, and takes it back once the credit is cancelled', () => {
    const credit = (state: 'issued' | 'cancelled') => ({ state, amountDue: -5_000n });
    expect(refundExcess(credit('issued'), [payment('refund', 'pending', 5_000n)])).toBe(0n);
    expect(refundExcess(credit('issued'), [payment('refund', 'received', 5_000n), payment('refund', 'pending', 5_000n)])).toBe(5_000n);
    expect(refundExcess(credit('cancelled'), [payment('refund', 'pending', 5_000n)])).toBe(5_000n);
    // Paid out, it is beyond recall: the credit note asks it back (creditToRecover).
    expect(refundExcess(credit('cancelled'), [payment('refund', 'received', 5_000n)])).toBe(5_000n);
    // What the customer paid towards the credit invoice stays theirs: that much of the refund stands.
    const paidTowards = [payment('payment', 'received', 1_000n), payment('refund', 'pending', 5_000n)];
    expect([refundOwed(credit('cancelled'), paidTowards), refundExcess(credit('cancelled'), paidTowards)]).toEqual([0n, 4_000n]);
    expect(refundOwed(credit('cancelled'), [payment('payment', 'received', 1_000n)])).toBe(1_000n);
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

  it('is settled with the payments of the invoice it cancels; an invoice by its own', () => {
    for (const amountDue of [-1_428n, 0n, 3_572n]) expect(settlingInvoiceIds(creditNote(amountDue))).toEqual(['cn', 'inv']);
    expect(settlingInvoiceIds({ id: 'inv', kind: 'invoice', cancelsInvoiceId: null })).toEqual(['inv']);
    // Payments of other invoices do not count.
    expect(isInvoiceSettled({ id: 'inv', kind: 'invoice', amountDue: 1_000n, cancelsInvoiceId: null }, [payment('payment', 'received', 1_000n, 'other')])).toBe(false);
    expect(isInvoiceSettled(creditNote(-1_428n), [payment('payment', 'received', 1_428n)])).toBe(false);
    expect(isInvoiceSettled(creditNote(-1_428n), [payment('payment', 'received', 1_428n), payment('refund', 'received', 1_428n)])).toBe(true);
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
    ['a refund paid out for a payment the bank returned after', [payment('payment', 'failed', 1_000n), payment('refund', 'received', 1_000n)], false],
    ['a refund paid out for a returned payment, and paid back', [payment('payment', 'failed', 1_000n), payment('refund', 'received', 1_000n), payment('payment', 'received', 1_000n, 'cn')], true],
    ['a refund paid out for a returned payment, its debit back in a payment run', [payment('payment', 'failed', 1_000n), payment('refund', 'received', 1_000n), payment('payment', 'submitted', 1_000n, 'cn')], false],
  ] as const)('with %s: %s', (_, payments, settled) => {
    const ofInvoice = (id: string) => payments.filter((p) => p.invoiceId === id);
    expect(isCancellationSettled(ofInvoice('inv'), ofInvoice('cn'))).toBe(settled);
    expect(isInvoiceSettled(creditNote(-1_428n), payments)).toBe(settled);
  });

  it.each([
    ['the credit never paid out (its refund withdrawn)', [payment('refund', 'failed', 3_572n)], true],
    ['nothing on the credit invoice at all', [], true],
    ['its refund in a payment run, which may yet reach the customer', [payment('refund', 'submitted', 3_572n)], false],
    ['its refund paid out and nothing paid back', [payment('refund', 'received', 3_572n)], false],
    ['its refund paid out and paid back', [payment('refund', 'received', 3_572n), payment('payment', 'received', 3_572n, 'cn')], true],
    ['its refund paid out and the debit back in a payment run', [payment('refund', 'received', 3_572n), payment('payment', 'submitted', 3_572n, 'cn')], false],
    ['part of it paid out and that part paid back', [payment('refund', 'received', 2_000n), payment('refund', 'failed', 1_572n), payment('payment', 'received', 2_000n, 'cn')], true],
    ['a payment towards the credit invoice, offset against its refund', [payment('payment', 'received', 1_000n), payment('refund', 'received', 3_572n), payment('payment', 'received', 2_572n, 'cn')], true],
  ] as const)('asking a credit back, with %s: %s', (_, payments, settled) => {
    expect(isInvoiceSettled(creditNote(3_572n), payments)).toBe(settled);
  });

  it('asks back what the customer got back on the cancelled invoice, so that with what that invoice owes back nothing is gained or lost', () => {
    const arbitraryPayment = fc.record({ type: fc.constantFrom('payment', 'refund'), state: fc.constantFrom('received', 'failed'), amount: fc.bigInt({ min: 1n, max: 50_000n }) });
    fc.assert(
      fc.property(fc.bigInt({ min: -50_000n, max: 50_000n }), fc.array(arbitraryPayment, { maxLength: 8 }), (amountDue, drawn) => {
        const payments = drawn.map((p) => ({ ...p, invoiceId: 'inv' }));
        const received = (type: string) => payments.filter((p) => p.type === type && p.state === 'received').reduce((sum, p) => sum + p.amount, 0n);
        const recovered = toRecover(payments);
        const owed = refundOwed({ state: 'cancelled', amountDue: -amountDue }, payments);
        expect(recovered >= 0n && owed >= 0n && (recovered === 0n || owed === 0n)).toBe(true);
        // The customer's money on the cancelled invoice and its credit note comes to nothing.
        expect(received('refund') + owed - received('payment') - recovered).toBe(0n);
        // Once the owed refund and what the credit note asks have arrived, it is settled.
        const settledWith = [...payments, payment('refund', 'received', owed), payment('payment', 'received', recovered, 'cn')];
        expect(isInvoiceSettled(creditNote(amountDue), settledWith)).toBe(true);
        if (recovered > 0n) expect(isInvoiceSettled(creditNote(amountDue), payments)).toBe(false);
      }),
    );
  });

  it('is named by payments when issued or paid, and by refunds unless the invoice it cancels takes them', () => {
    const document = (kind: 'invoice' | 'credit_note', state: 'draft' | 'issued' | 'paid' | 'cancelled', amountDue: bigint) => ({ id: 'x', kind, state, amountDue, cancelsInvoiceId: kind === 'credit_note' ? 'inv' : null });
    for (const state of ['issued', 'paid'] as const) {
      for (const type of ['payment', 'refund']) {
        expect(paymentTargetRefusal(document('invoice', state, 1_428n), type), state).toBeNull();
        expect(paymentTargetRefusal(document('invoice', state, -1_428n), type), state).toBeNull();
        expect(paymentTargetRefusal(document('credit_note', state, 3_572n), type), state).toBeNull();
      }
      for (const amountDue of [-1_428n, 0n]) {
        expect(paymentTargetRefusal(document('credit_note', state, amountDue), 'payment'), state).toBeNull();
        expect(paymentTargetRefusal(document('credit_note', state, amountDue), 'refund'), state).toBe('Credit note x pays back through refunds naming invoice inv, which it cancels; name that invoice.');
      }
    }
    expect(paymentTargetRefusal(document('invoice', 'draft', 1_428n), 'payment')).toBe('Invoice x is draft; payments settle issued invoices.');
    expect(paymentTargetRefusal(document('invoice', 'cancelled', 1_428n), 'refund')).toBe('Invoice x is cancelled; payments settle issued invoices.');
  });

  it('is settled exactly when nothing is under way on the cancelled invoice and nothing is owed back or to be recovered', () => {
    const arbitraryPayment = fc.record({
      type: fc.constantFrom('payment', 'refund'),
      state: fc.constantFrom('pending', 'submitted', 'received', 'failed'),
      amount: fc.bigInt({ min: 1n, max: 50_000n }),
      invoiceId: fc.constant('inv'),
    });
    fc.assert(
      fc.property(fc.bigInt({ min: -50_000n, max: 50_000n }), fc.array(arbitraryPayment, { maxLength: 8 }), (amountDue, payments) => {
        const underWay = payments.some((p) => p.state === 'submitted' || (p.type === 'refund' && p.state === 'pending'));
        const cancelled = { state: 'cancelled' as const, amountDue };
        expect(isInvoiceSettled(creditNote(-amountDue), payments)).toBe(!underWay && refundOwed(cancelled, payments) === 0n && toRecover(payments) === 0n);
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
