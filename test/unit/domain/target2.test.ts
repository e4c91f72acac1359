import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../../core/domain/time/calendar-date.js';
import { earliestCollectionDate, easterSunday, isTarget2BusinessDay, nextTarget2BusinessDay } from '../../../core/domain/time/target2.js';

const date = fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

describe('TARGET2 calendar', () => {
  it.each([
    [2000, '2000-04-23'],
    [2019, '2019-04-21'],
    [2024, '2024-03-31'],
    [2025, '2025-04-20'],
    [2026, '2026-04-05'],
    [2027, '2027-03-28'],
    [2038, '2038-04-25'],
  ])('Easter %i is on %s', (year, easter) => {
    expect(easterSunday(year)).toBe(easter);
  });

  it.each([
    ['2024-03-29', false, 'Good Friday 2024'],
    ['2024-04-01', false, 'Easter Monday 2024'],
    ['2025-04-18', false, 'Good Friday 2025'],
    ['2025-04-21', false, 'Easter Monday 2025'],
    ['2026-04-03', false, 'Good Friday 2026'],
    ['2026-04-06', false, 'Easter Monday 2026'],
    ['2027-03-26', false, 'Good Friday 2027'],
    ['2027-03-29', false, 'Easter Monday 2027'],
    ['2026-04-02', true, 'Maundy Thursday'],
    ['2026-04-07', true, 'the Tuesday after Easter'],
    ['2026-05-01', false, 'Labour Day'],
    ['2026-05-14', true, 'Ascension Day (a German holiday, not a TARGET2 one)'],
    ['2026-05-25', true, 'Whit Monday'],
    ['2025-10-03', true, 'German Unity Day'],
    ['2025-12-24', true, 'Christmas Eve'],
    ['2025-12-25', false, 'Christmas Day'],
    ['2025-12-26', false, '26 December'],
    ['2025-12-31', true, "New Year's Eve"],
    ['2026-01-01', false, "New Year's Day"],
    ['2026-01-02', true, 'the first business day of 2026'],
    ['2026-03-06', true, 'a Friday'],
    ['2026-03-07', false, 'a Saturday'],
    ['2026-03-08', false, 'a Sunday'],
    ['2026-03-09', true, 'a Monday'],
  ])('%s is a business day: %s (%s)', (day, open) => {
    expect(isTarget2BusinessDay(day)).toBe(open);
  });

  it.each([
    ['2026-03-05', '2026-03-06', 'Thursday to Friday'],
    ['2026-03-06', '2026-03-09', 'over a weekend'],
    ['2026-03-07', '2026-03-09', 'from a Saturday'],
    ['2026-04-02', '2026-04-07', 'over Easter'],
    ['2026-04-30', '2026-05-04', 'over 1 May and a weekend'],
    ['2025-12-24', '2025-12-29', 'over Christmas and a weekend'],
    ['2025-12-31', '2026-01-02', 'over the year end'],
    ['2027-12-31', '2028-01-03', 'over the year end and a weekend'],
  ])('the business day after %s is %s (%s)', (day, next) => {
    expect(nextTarget2BusinessDay(day)).toBe(next);
  });

  it.each([
    ['2026-03-02', '2026-03-03', 'a Monday: the next day'],
    ['2026-03-06', '2026-03-09', 'a Friday: the Monday'],
    ['2026-03-07', '2026-03-10', 'a Saturday: the file is processed on Monday, so Tuesday'],
    ['2026-04-03', '2026-04-08', 'Good Friday: processed on the Tuesday after Easter, so Wednesday'],
    ['2025-12-23', '2025-12-24', 'before Christmas'],
    ['2025-12-24', '2025-12-29', 'Christmas Eve'],
  ])('a file handed in on %s collects on %s at the earliest (%s)', (today, earliest) => {
    expect(earliestCollectionDate(today)).toBe(earliest);
  });

  it('refuses what is not a calendar date', () => {
    expect(() => isTarget2BusinessDay('2026-02-30')).toThrow(RangeError);
    expect(() => nextTarget2BusinessDay('02.03.2026')).toThrow(RangeError);
  });

  it('finds the next business day without skipping one', () => {
    fc.assert(
      fc.property(date, (day) => {
        const next = nextTarget2BusinessDay(day);
        expect(next > day).toBe(true);
        expect(isTarget2BusinessDay(next)).toBe(true);
        for (let between = addDays(day, 1); between < next; between = addDays(between, 1)) expect(isTarget2BusinessDay(between)).toBe(false);
      }),
    );
  });

  it('collects at the earliest one business day after the first business day the file is processed on', () => {
    fc.assert(
      fc.property(date, (today) => {
        const earliest = earliestCollectionDate(today);
        expect(isTarget2BusinessDay(earliest)).toBe(true);
        const businessDaysBefore = [];
        for (let day = today; day < earliest; day = addDays(day, 1)) if (isTarget2BusinessDay(day)) businessDaysBefore.push(day);
        expect(businessDaysBefore).toHaveLength(1);
      }),
    );
  });
});
