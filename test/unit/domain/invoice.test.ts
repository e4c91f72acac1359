import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invoiceNumber } from '../../../core/domain/billing/invoice.js';
import { isSettled } from '../../../core/domain/billing/invoice-payments.js';

const received = (type: string, amount: bigint) => ({ type, state: 'received', amount });

describe('invoice numbers', () => {
  it('are prefixed by kind and year, six digits', () => {
    expect(invoiceNumber('invoice', 2026, 1)).toBe('INV-2026-000001');
    expect(invoiceNumber('credit_note', 2027, 123456)).toBe('CN-2027-123456');
  });
});

describe('settling an invoice', () => {
  it('counts received payments for an amount due and received refunds for a credit', () => {
    expect(isSettled(28459n, [received('payment', 10000n), received('payment', 18459n)])).toBe(true);
    expect(isSettled(28459n, [received('payment', 10000n), { type: 'payment', state: 'pending', amount: 18459n }])).toBe(false);
    expect(isSettled(28459n, [received('refund', 28459n)])).toBe(false);
    expect(isSettled(-5000n, [received('refund', 5000n)])).toBe(true);
    expect(isSettled(-5000n, [received('payment', 5000n)])).toBe(false);
    expect(isSettled(0n, [])).toBe(true);
  });

  it('is settled exactly when the received settling amounts reach what is due', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }), fc.array(fc.bigInt({ min: 1n, max: 10n ** 8n })), (due, amounts) => {
        const type = due >= 0n ? 'payment' : 'refund';
        const sum = amounts.reduce((a, b) => a + b, 0n);
        expect(isSettled(due, amounts.map((amount) => received(type, amount)))).toBe(sum >= (due < 0n ? -due : due));
      }),
    );
  });
});
