import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startOfDay, wallClock } from '../../../core/domain/time/calendar-date.js';
import { bucketsOf, INTERVALS, isBoundary, quarterHoursIn, QUARTER_HOUR_MS } from '../../../core/domain/time/buckets.js';

const ZONES = ['Europe/Berlin', 'Europe/London', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC'];
const date = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

describe('time buckets', () => {
  it('starts a day at local midnight in every zone, the same when asked again, as a Date of its own', () => {
    fc.assert(
      fc.property(date, fc.constantFrom(...ZONES), (day, zone) => {
        const first = startOfDay(day, zone);
        expect(new Date(wallClock(first.getTime(), zone)).toISOString()).toBe(`${day}T00:00:00.000Z`);
        expect(wallClock(first.getTime() - 1000, zone)).toBeLessThan(Date.parse(`${day}T00:00:00.000Z`));
        const start = first.getTime();
        first.setTime(0);
        expect(startOfDay(day, zone).getTime()).toBe(start);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['2026-03-29', 92],
    ['2026-10-25', 100],
    ['2026-06-01', 96],
  ])('a Berlin day %s has %i quarter hours', (day, count) => {
    const start = startOfDay(day, 'Europe/Berlin').getTime();
    const [bucket] = bucketsOf(start, start + 1, 'P1D', 'Europe/Berlin');
    expect(quarterHoursIn(bucket!)).toBe(count);
    expect(bucketsOf(start, bucket!.end, 'PT15M', 'Europe/Berlin')).toHaveLength(count);
  });

  it('starts months on the 1st at local midnight, across DST and year ends', () => {
    const start = startOfDay('2025-12-01', 'Europe/Berlin').getTime();
    const end = startOfDay('2027-01-01', 'Europe/Berlin').getTime();
    const months = bucketsOf(start, end, 'P1M', 'Europe/Berlin');
    expect(months).toHaveLength(13);
    expect(new Date(months[4]!.start).toISOString()).toBe('2026-03-31T22:00:00.000Z');
    expect(months.map((m) => quarterHoursIn(m)).slice(0, 5)).toEqual([31 * 96, 31 * 96, 28 * 96, 31 * 96 - 4, 30 * 96]);
  });

  it('partitions any aligned range into contiguous buckets on boundaries, in every zone', () => {
    fc.assert(
      fc.property(date, fc.integer({ min: 1, max: 40 }), fc.constantFrom(...ZONES), fc.constantFrom(...INTERVALS), (day, days, zone, interval) => {
        const start = startOfDay(day, zone).getTime();
        const end = startOfDay(new Date(Date.parse(day) + days * 86_400_000).toISOString().slice(0, 10), zone).getTime();
        fc.pre(isBoundary(start, interval, zone) && isBoundary(end, interval, zone));
        const buckets = bucketsOf(start, end, interval, zone);
        expect(buckets[0]!.start).toBe(start);
        expect(buckets.at(-1)!.end).toBe(end);
        buckets.forEach((bucket, i) => {
          expect(bucket.end).toBeGreaterThan(bucket.start);
          expect(isBoundary(bucket.start, interval, zone)).toBe(true);
          if (i > 0) expect(bucket.start).toBe(buckets[i - 1]!.end);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('sums the quarter hours of the days of a month to the month', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2000, max: 2040 }), fc.integer({ min: 1, max: 12 }), fc.constantFrom(...ZONES), (year, month, zone) => {
        const first = `${year}-${String(month).padStart(2, '0')}-01`;
        const next = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
        const [start, end] = [startOfDay(first, zone).getTime(), startOfDay(next, zone).getTime()];
        const days = bucketsOf(start, end, 'P1D', zone);
        const [monthBucket] = bucketsOf(start, end, 'P1M', zone);
        expect(days.reduce((sum, d) => sum + quarterHoursIn(d), 0)).toBe(quarterHoursIn(monthBucket!));
        expect((end - start) % QUARTER_HOUR_MS).toBe(0);
      }),
    );
  });
});
