import { describe, expect, it } from 'vitest';
import type { AllocationKey } from '../../../core/domain/balancing/allocation.js';
import { allocationKeyAt, allocationKeyOn, firstKeyDifference, periodsUnderKey, withAllocationKey, type DatedAllocationKey } from '../../../core/domain/sites/site.js';
import { startOfDay } from '../../../core/domain/time/calendar-date.js';

const dated = (...entries: [AllocationKey, string][]): DatedAllocationKey[] => entries.map(([key, validFrom]) => ({ key, validFrom }));
const history = dated(['static', '2026-03-01'], ['dynamic', '2026-05-01']);

describe('dated allocation keys', () => {
  it.each([
    [[], '2026-01-01', 'priority'],
    [history, '2026-02-28', 'priority'],
    [history, '2026-03-01', 'static'],
    [history, '2026-04-30', 'static'],
    [history, '2026-05-01', 'dynamic'],
    [history, '2099-12-31', 'dynamic'],
  ] as const)('%j on %s: %s (the latest validFrom not after the date)', (keys, date, expected) => {
    expect(allocationKeyOn(keys, date)).toBe(expected);
  });

  it('answers for instants from the start of the first day in the account timezone', () => {
    const keyAt = allocationKeyAt(history, (date) => startOfDay(date, 'Europe/Berlin').getTime());
    expect(keyAt(Date.parse('2026-02-28T22:45:00.000Z'))).toBe('priority');
    expect(keyAt(Date.parse('2026-02-28T23:00:00.000Z'))).toBe('static');
    // Summer time: 1 May begins at 22:00 UTC.
    expect(keyAt(Date.parse('2026-04-30T21:45:00.000Z'))).toBe('static');
    expect(keyAt(Date.parse('2026-04-30T22:00:00.000Z'))).toBe('dynamic');
  });

  it.each([
    ['a first key', [], ['static', '2026-03-01'], dated(['static', '2026-03-01']), '2026-03-01'],
    ['a later key, after the others', history, ['priority', '2026-07-01'], dated(['static', '2026-03-01'], ['dynamic', '2026-05-01'], ['priority', '2026-07-01']), '2026-07-01'],
    ['a key before later ones: they give way', history, ['priority', '2026-04-01'], dated(['static', '2026-03-01'], ['priority', '2026-04-01']), '2026-04-01'],
    ['the current key dated later: it moves', history, ['dynamic', '2026-06-01'], dated(['static', '2026-03-01'], ['dynamic', '2026-06-01']), '2026-05-01'],
    ['the current key dated earlier: it moves over the one before', history, ['dynamic', '2026-02-01'], dated(['dynamic', '2026-02-01']), '2026-02-01'],
    ['the current key with its own date: nothing changes', history, ['dynamic', '2026-05-01'], history, null],
    ['priority dated on a site that never changed: nothing is balanced differently', [], ['priority', '2026-03-01'], dated(['priority', '2026-03-01']), null],
  ] as const)('%s', (_, keys, [key, validFrom], expected, difference) => {
    const after = withAllocationKey(keys, key, validFrom);
    expect(after).toEqual(expected);
    expect(firstKeyDifference(keys, after)).toBe(difference);
  });

  it.each([
    [{ startDate: '2026-01-01', endDate: null }, 'priority', [{ startDate: '2026-01-01', endDate: '2026-03-01' }]],
    [{ startDate: '2026-01-01', endDate: null }, 'static', [{ startDate: '2026-03-01', endDate: '2026-05-01' }]],
    [{ startDate: '2026-01-01', endDate: null }, 'dynamic', [{ startDate: '2026-05-01', endDate: null }]],
    [{ startDate: '2026-04-01', endDate: '2026-06-01' }, 'static', [{ startDate: '2026-04-01', endDate: '2026-05-01' }]],
    [{ startDate: '2026-04-01', endDate: '2026-05-01' }, 'dynamic', []],
  ] as const)('within %j the key %s is in force over %j', (period, key, expected) => {
    expect(periodsUnderKey(history, period, key)).toEqual(expected);
  });

  it('joins neighbouring periods of the same key', () => {
    const keys = dated(['static', '2026-03-01'], ['static', '2026-04-01'], ['priority', '2026-05-01']);
    expect(periodsUnderKey(keys, { startDate: '2026-01-01', endDate: null }, 'static')).toEqual([{ startDate: '2026-03-01', endDate: '2026-05-01' }]);
  });
});
