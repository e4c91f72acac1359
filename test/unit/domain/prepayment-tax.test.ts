import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepaymentTaxes, type GrossAtRate } from '../../../core/domain/billing/prepayment-tax.js';

const rate = (percentage: bigint, gross: bigint): GrossAtRate => ({ percentage, gross });

describe('the VAT contained in deducted prepayments (§14 (5) UStG)', () => {
  it.each([
    // One rate: VAT = total × p / (100 + p), half up; net = total − VAT.
    { name: '19 % of 100.00', total: 10_000n, rates: [rate(1900n, 84_371n)], expected: [[1900n, 8_403n, 1_597n]] },
    { name: '19 % of 50.00', total: 5_000n, rates: [rate(1900n, 1n)], expected: [[1900n, 4_202n, 798n]] },
    { name: '7 % of 200.00', total: 20_000n, rates: [rate(700n, 50_000n)], expected: [[700n, 18_692n, 1_308n]] },
    // 0.07 × 19 / 119 = 0.01117…: one cent.
    { name: 'one cent of VAT in seven cents', total: 7n, rates: [rate(1900n, 100n)], expected: [[1900n, 6n, 1n]] },
    // 0.03 × 20 / 120 = 0.005 exactly: half up to 0.01.
    { name: 'a half cent rounds up', total: 3n, rates: [rate(2000n, 100n)], expected: [[2000n, 2n, 1n]] },
    { name: '0 % contains no VAT', total: 1_000n, rates: [rate(0n, 500n)], expected: [[0n, 1_000n, 0n]] },
    // Two rates: 300.00 split 2 : 1 by gross (200.00 at 19 %, 100.00 at 7 %).
    {
      name: 'two rates in proportion to the gross per rate',
      total: 30_000n,
      rates: [rate(1900n, 20_000n), rate(700n, 10_000n)],
      expected: [
        [1900n, 16_807n, 3_193n],
        [700n, 9_346n, 654n],
      ],
    },
    // 100.00 split 1 : 1 : 1: 33.33 each and the cent left over to the first (equal remainders): 33.34 × 19 / 119 = 5.3231…
    {
      name: 'three rates, the cent left over to the earliest of equal remainders',
      total: 10_000n,
      rates: [rate(1900n, 100n), rate(700n, 100n), rate(0n, 100n)],
      expected: [
        [1900n, 2_802n, 532n],
        [700n, 3_115n, 218n],
        [0n, 3_333n, 0n],
      ],
    },
    // 10.00 split 2 : 1 = 6.666… and 3.333…: the larger remainder (6.666…) gets the cent: 6.67 + 3.33.
    {
      name: 'the largest remainder gets the cent',
      total: 1_000n,
      rates: [rate(700n, 100n), rate(1900n, 200n)],
      expected: [
        [700n, 311n, 22n],
        [1900n, 561n, 106n],
      ],
    },
    // Two tax rates of the same percentage are one rate.
    { name: 'equal percentages merge', total: 11_900n, rates: [rate(1900n, 1_000n), rate(1900n, 3_000n)], expected: [[1900n, 10_000n, 1_900n]] },
    // A credit note: the same, negated.
    {
      name: 'a credit note negates',
      total: -30_000n,
      rates: [rate(1900n, -20_000n), rate(700n, -10_000n)],
      expected: [
        [1900n, -16_807n, -3_193n],
        [700n, -9_346n, -654n],
      ],
    },
    // A rate whose gross runs against the invoice's takes no share.
    { name: 'a rate against the total takes no share', total: 11_900n, rates: [rate(1900n, 50_000n), rate(700n, -1_000n)], expected: [[1900n, 10_000n, 1_900n]] },
    // No gross at all: split evenly.
    {
      name: 'no gross: split evenly',
      total: 200n,
      rates: [rate(1900n, 0n), rate(700n, 0n)],
      expected: [
        [1900n, 84n, 16n],
        [700n, 93n, 7n],
      ],
    },
    { name: 'no prepayments', total: 0n, rates: [rate(1900n, 10_000n)], expected: [] },
    { name: 'no rates', total: 5_000n, rates: [], expected: [] },
  ])('$name', ({ total, rates, expected }) => {
    expect(prepaymentTaxes(total, rates).map((t) => [t.percentage, t.netAmount, t.taxAmount])).toEqual(expected);
  });

  const percentage = fc.constantFrom(0n, 500n, 700n, 1000n, 1600n, 1900n, 2000n, 2500n);
  const rates = fc.uniqueArray(fc.record({ percentage, gross: fc.bigInt({ min: 0n, max: 10n ** 9n }) }), { minLength: 1, maxLength: 5, selector: (r) => r.percentage });
  const total = fc.bigInt({ min: -(10n ** 10n), max: 10n ** 10n });

  it('splits the total exactly: the gross parts sum to the prepayments', () => {
    fc.assert(
      fc.property(total, rates, (total, rates) => {
        const taxes = prepaymentTaxes(total, rates);
        expect(taxes.reduce((sum, t) => sum + t.netAmount + t.taxAmount, 0n)).toBe(total);
        for (const t of taxes) expect(t.netAmount === 0n || t.netAmount < 0n === total < 0n).toBe(true);
      }),
    );
  });

  it('puts each rate’s VAT within a cent of its exact share', () => {
    fc.assert(
      fc.property(total, rates, (total, rates) => {
        const weightTotal = rates.reduce((sum, r) => sum + r.gross, 0n);
        const weightOf = (p: bigint) => (weightTotal === 0n ? 1n : rates.find((r) => r.percentage === p)!.gross);
        const weights = weightTotal === 0n ? BigInt(rates.length) : weightTotal;
        const taxes = prepaymentTaxes(total, rates);
        for (const t of taxes) {
          // Exact VAT of the exact share: total × weight / weights × p / (10000 + p).
          const scale = weights * (10_000n + t.percentage);
          const exact = total * weightOf(t.percentage) * t.percentage;
          const difference = t.taxAmount * scale - exact;
          expect(difference < 0n ? -difference : difference).toBeLessThan(scale);
        }
        // Rates without a share are left out, and none is printed twice.
        expect(new Set(taxes.map((t) => t.percentage)).size).toBe(taxes.length);
      }),
    );
  });
});
