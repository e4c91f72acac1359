import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inForce, inForceOn, type DatePeriod } from '../../../core/domain/periods.js';
import { addDays } from '../../../core/domain/time/calendar-date.js';

const day = (offset: number) => addDays('2026-01-01', offset);
/** A record [start, end) or open-ended, and a period [from, to), within a few weeks. */
const record = fc.tuple(fc.integer({ min: 0, max: 40 }), fc.option(fc.integer({ min: 1, max: 20 }), { nil: null })).map(
  ([start, length]): DatePeriod => ({ startDate: day(start), endDate: length === null ? null : day(start + length) }),
);
const period = fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 20 })).map(([start, length]) => [day(start), day(start + length)] as const);

describe('in force', () => {
  it('in a period exactly when in force on one of its days', () => {
    fc.assert(
      fc.property(record, period, (r, [from, to]) => {
        const days = Array.from({ length: 60 }, (_, i) => day(i)).filter((d) => d >= from && d < to);
        expect(inForce(r, from, to)).toBe(days.some((d) => inForceOn(r, d)));
      }),
    );
  });

  it.each([
    [{ startDate: '2026-01-10', endDate: '2026-01-20' }, '2026-01-20', false],
    [{ startDate: '2026-01-10', endDate: '2026-01-20' }, '2026-01-19', true],
    [{ startDate: '2026-01-10', endDate: '2026-01-20' }, '2026-01-09', false],
    [{ startDate: '2026-01-10', endDate: null }, '2099-12-31', true],
  ] as const)('%o on %s: %s (the end is exclusive)', (r, d, expected) => {
    expect(inForceOn(r, d)).toBe(expected);
  });
});
