import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Price, priceOn, priceWindows } from '../../../core/domain/billing/price.js';

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
const price = (validFrom: string, amount: bigint) => Object.assign(new Price(), { id: validFrom, validFrom, amount });

describe('price versions', () => {
  const prices = [price('2026-03-01', 300_000n), price('2026-01-01', 289_500n)];

  it('finds the price in force on a date', () => {
    expect([priceOn(prices, '2025-12-31'), priceOn(prices, '2026-01-01')?.amount, priceOn(prices, '2026-02-28')?.amount, priceOn(prices, '2026-03-01')?.amount]).toEqual([
      null,
      289_500n,
      289_500n,
      300_000n,
    ]);
  });

  it('splits a period into windows where the price changes', () => {
    expect(priceWindows(prices, '2025-12-15', '2026-04-01').map((w) => [w.price.amount, w.from, w.to])).toEqual([
      [289_500n, '2026-01-01', '2026-03-01'],
      [300_000n, '2026-03-01', '2026-04-01'],
    ]);
  });

  it('covers every day of a period after the first price exactly once, with the price in force that day', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 60 }), (starts, from, length) => {
        const history = starts.map((s, i) => price(day(s), BigInt(i)));
        const windows = priceWindows(history, day(from), day(from + length));
        for (let d = from; d < from + length; d++) {
          const covering = windows.filter((w) => w.from <= day(d) && day(d) < w.to);
          const inForce = priceOn(history, day(d));
          expect(covering.map((w) => w.price)).toEqual(inForce ? [inForce] : []);
        }
      }),
    );
  });
});
