import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { overlappingRate, ratesInForce, TaxRate } from '../../../core/domain/billing/tax-rate.js';
import { divideRounded, energyCost, formatCents, formatDecimal, formatMicros, parseCents, parseDecimal, parseMicros, taxOf } from '../../../core/domain/billing/money.js';

const big = fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n });

describe('money', () => {
  it('parses and formats decimal strings exactly', () => {
    expect([parseCents('12.34'), parseCents('12.3'), parseCents('-0.05'), parseCents('7')]).toEqual([1234n, 1230n, -5n, 700n]);
    expect([parseCents('1.234'), parseCents('1,23'), parseCents('1e3'), parseCents(''), parseCents('.5')]).toEqual([null, null, null, null, null]);
    expect([formatCents(1234n), formatCents(-5n), formatCents(0n), formatMicros(289500n)]).toEqual(['12.34', '-0.05', '0.00', '0.289500']);
  });

  it('round-trips every integer through its decimal string', () => {
    fc.assert(
      fc.property(big, fc.integer({ min: 0, max: 8 }), (units, scale) => {
        expect(parseDecimal(formatDecimal(units, scale), scale)).toBe(units);
      }),
    );
  });

  it('rounds half away from zero, like the Decimal.js reference, on every case', () => {
    fc.assert(
      fc.property(big, fc.bigInt({ min: 1n, max: 10n ** 12n }), (numerator, denominator) => {
        const reference = new Decimal(numerator.toString()).div(denominator.toString()).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
        expect(divideRounded(numerator, denominator).toString()).toBe(reference.toFixed(0));
      }),
    );
  });

  it('prices energy once to the cent, also beyond 2^53', () => {
    expect(energyCost(1_500n, parseMicros('0.289500')!)).toBe(43n);
    expect(energyCost(1_000n, parseMicros('0.005')!)).toBe(1n);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 13n }), fc.bigInt({ min: 0n, max: 10n ** 7n }), (wh, micros) => {
        const reference = new Decimal(wh.toString()).div(1000).mul(new Decimal(micros.toString()).div(1e6)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
        expect(formatCents(energyCost(wh, micros))).toBe(reference.toFixed(2));
      }),
    );
    expect(taxOf(1000n, 1900n)).toBe(190n);
    expect(taxOf(-1005n, 1900n)).toBe(-191n);
  });
});

describe('tax rate histories', () => {
  const rate = (id: string, validFrom: string, validUntil: string | null) => Object.assign(new TaxRate(), { id, name: 'VAT', percentage: 1900, validFrom, validUntil });
  const history = [rate('a', '2020-07-01', '2021-01-01'), rate('b', '2021-01-01', null)];

  it('splits a period where the rate changes and leaves out days without a rate', () => {
    expect(ratesInForce(history, '2020-06-01', '2021-03-01').map((s) => [s.rate.id, s.from, s.to])).toEqual([
      ['a', '2020-07-01', '2021-01-01'],
      ['b', '2021-01-01', '2021-03-01'],
    ]);
    expect(ratesInForce(history, '2019-01-01', '2019-02-01')).toEqual([]);
  });

  it('finds overlaps within a history, half-open', () => {
    expect(overlappingRate(rate('c', '2020-12-31', '2021-01-01'), history)?.id).toBe('a');
    expect(overlappingRate(rate('c', '2020-01-01', '2020-07-01'), history)).toBeUndefined();
    expect(overlappingRate(rate('b', '2021-01-01', null), history)).toBeUndefined();
  });
});
