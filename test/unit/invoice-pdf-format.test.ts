import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Format } from '../../core/billing/invoices/invoice-pdf-format.js';
import { labels } from '../../core/billing/invoices/invoice-pdf-labels.js';

const de = new Format(labels['de-DE'], 'EUR');
const en = new Format(labels['en-GB'], 'EUR');

/** The date `shift` days after `value` as a Date prints it: what the formatter must agree with. */
function shifted(value: string, shift: number): [string, string, string] {
  const date = new Date(`${value}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + shift);
  return date.toISOString().slice(0, 10).split('-') as [string, string, string];
}

describe('invoice PDF formats', () => {
  it.each([
    ['2026-11-03', 0, '03.11.2026', '03/11/2026'],
    ['2026-11-01', -1, '31.10.2026', '31/10/2026'],
    ['2027-01-01', -1, '31.12.2026', '31/12/2026'],
    ['2028-03-01', -1, '29.02.2028', '29/02/2028'],
    ['2027-03-01', -1, '28.02.2027', '28/02/2027'],
    ['2026-12-31', 1, '01.01.2027', '01/01/2027'],
    ['2026-10-25', 400, '29.11.2027', '29/11/2027'],
  ])('formats %s shifted by %i days', (value, shift, german, english) => {
    expect(de.date(value, shift)).toBe(german);
    expect(en.date(value, shift)).toBe(english);
  });

  it('formats every date, shifted or not, as the calendar has it', () => {
    const day = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, fc.integer({ min: -800, max: 800 }), (value, shift) => {
        const [year, month, date] = shifted(value, shift);
        expect(de.date(value, shift)).toBe(`${date}.${month}.${year}`);
        expect(en.date(value, shift)).toBe(`${date}/${month}/${year}`);
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses what is not a calendar date', () => {
    for (const value of ['2026-1-03', '03.11.2026', '2026-11-03T00:00:00Z', '']) expect(() => de.date(value)).toThrow(`Not a calendar date: ${value}`);
  });
});
