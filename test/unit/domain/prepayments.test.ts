import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PrepaymentCycle } from '../../../core/domain/products/electricity-product.js';
import { amountOn, dueDates, PrepaymentAmount } from '../../../core/domain/payments/prepayment.js';
import { normaliseBic, normaliseIban } from '../../../core/domain/payments/bank-account.js';

const day = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
const monthsBetween = (a: string, b: string) => (Number(b.slice(0, 4)) - Number(a.slice(0, 4))) * 12 + Number(b.slice(5, 7)) - Number(a.slice(5, 7));
const STEP: Record<PrepaymentCycle, number> = { monthly: 1, quarterly: 3, yearly: 12 };

describe('prepayment due dates', () => {
  it('falls on the day of month of every cycle, counted from the contract start month', () => {
    expect(dueDates({ cycle: 'monthly', dayOfMonth: 15 }, '2026-01-20', '2026-01-01', '2026-04-15')).toEqual(['2026-01-15', '2026-02-15', '2026-03-15']);
    expect(dueDates({ cycle: 'quarterly', dayOfMonth: 1 }, '2026-02-10', '2026-01-01', '2027-01-01')).toEqual(['2026-02-01', '2026-05-01', '2026-08-01', '2026-11-01']);
    expect(dueDates({ cycle: 'yearly', dayOfMonth: 28 }, '2024-02-29', '2026-01-01', '2029-01-01')).toEqual(['2026-02-28', '2027-02-28', '2028-02-28']);
    expect(dueDates({ cycle: 'monthly', dayOfMonth: 1 }, '2026-01-01', '2026-03-01', '2026-03-01')).toEqual([]);
  });

  it('lists exactly the dates in the range that are on the day and an even number of cycles from the start', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<PrepaymentCycle>('monthly', 'quarterly', 'yearly'),
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: 0, max: 800 }),
        fc.integer({ min: 0, max: 800 }),
        fc.integer({ min: 1, max: 800 }),
        (cycle, dayOfMonth, start, from, length) => {
          const dates = dueDates({ cycle, dayOfMonth }, day(start), day(from), day(from + length));
          const expected: string[] = [];
          for (let d = from; d < from + length; d++) {
            const date = day(d);
            const offset = monthsBetween(day(start), date);
            if (Number(date.slice(8)) === dayOfMonth && offset >= 0 && offset % STEP[cycle] === 0) expected.push(date);
          }
          expect(dates).toEqual(expected);
        },
      ),
    );
  });

  it('takes the amount with the latest validFrom not after the date', () => {
    const amount = (validFrom: string, cents: bigint) => Object.assign(new PrepaymentAmount(), { id: validFrom, validFrom, amount: cents });
    const amounts = [amount('2026-03-01', 5500n), amount('2026-01-01', 5000n)];
    expect([amountOn(amounts, '2025-12-31'), amountOn(amounts, '2026-02-28')?.amount, amountOn(amounts, '2026-03-01')?.amount]).toEqual([null, 5000n, 5500n]);
  });
});

describe('bank accounts', () => {
  it('normalises IBANs and rejects wrong check digits and formats', () => {
    expect(normaliseIban('de89 3704 0044 0532 0130 00')).toBe('DE89370400440532013000');
    expect(normaliseIban('GB82WEST12345698765432')).toBe('GB82WEST12345698765432');
    expect(normaliseIban('DE88370400440532013000')).toBeNull();
    expect(normaliseIban('DE8937040044053201300')).toBeNull();
    expect(normaliseIban('')).toBeNull();
  });

  it('detects every single changed digit of a valid IBAN (mod 97)', () => {
    const iban = 'DE89370400440532013000';
    fc.assert(
      fc.property(fc.integer({ min: 2, max: iban.length - 1 }), fc.integer({ min: 1, max: 9 }), (position, delta) => {
        const digit = (Number(iban[position]) + delta) % 10;
        expect(normaliseIban(`${iban.slice(0, position)}${digit}${iban.slice(position + 1)}`)).toBeNull();
      }),
    );
  });

  it('normalises BICs', () => {
    expect([normaliseBic('cobadeffxxx'), normaliseBic('COBADEFF'), normaliseBic('COBADE'), normaliseBic('COBADEFFXX')]).toEqual(['COBADEFFXXX', 'COBADEFF', null, null]);
  });
});
