import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, calendarDateOf, localDaySplit } from '../../../core/domain/time/calendar-date.js';

const QH = 900_000;

describe('localDaySplit', () => {
  it('finds local midnight inside a UTC day, across DST', () => {
    expect(localDaySplit('2026-10-24', 'Europe/Berlin')).toBe(88); // CEST: midnight at 22:00 UTC
    expect(localDaySplit('2026-10-25', 'Europe/Berlin')).toBe(92); // CET from 01:00 UTC: midnight at 23:00 UTC
    expect(localDaySplit('2026-03-29', 'Europe/Berlin')).toBe(88);
    expect(localDaySplit('2026-10-24', 'UTC')).toBe(96);
    expect(localDaySplit('2026-10-24', 'America/New_York')).toBe(16); // EDT: midnight at 04:00 UTC
    expect(localDaySplit('2026-10-24', 'Pacific/Kiritimati')).toBe(40); // UTC+14: midnight at 10:00 UTC
  });

  it('puts slots before the split on the local date of the first slot, and the rest on the next date', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Kiritimati', 'UTC'];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 * 365 }), fc.constantFrom(...zones), (offset, zone) => {
        const day = addDays('2025-01-01', offset);
        const start = Date.parse(`${day}T00:00:00.000Z`);
        const split = localDaySplit(day, zone);
        const first = calendarDateOf(new Date(start), zone);
        for (let slot = 0; slot < 96; slot++) {
          expect(calendarDateOf(new Date(start + slot * QH), zone)).toBe(slot < split ? first : addDays(first, 1));
        }
      }),
      { numRuns: 200 },
    );
  });
});
