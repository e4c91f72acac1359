import { describe, expect, it } from 'vitest';
import { firstDayOverOne, periodsRebalanced } from '../../../core/domain/balancing/balancing-setting.js';
import { holdBack, invoicedOverlap, type InvoicedPeriod } from '../../../core/domain/balancing/invoiced-periods.js';
import type { DatedAllocationKey } from '../../../core/domain/sites/site.js';

const setting = (startDate: string, endDate: string | null, shareMicros: number | null) => ({ startDate, endDate, shareMicros });

describe('shares of the settings active on a day', () => {
  it.each([
    ['alone', setting('2026-01-01', null, 1_000_000), [], null],
    ['without a share', setting('2026-01-01', null, null), [setting('2026-01-01', null, 1_000_000)], null],
    ['exactly 1 together', setting('2026-01-01', null, 400_000), [setting('2026-01-01', null, 600_000)], null],
    ['above 1 from the first day', setting('2026-01-01', null, 400_001), [setting('2025-01-01', null, 600_000)], { day: '2026-01-01', sumMicros: 1_000_001 }],
    ['above 1 from when another starts', setting('2026-01-01', null, 500_000), [setting('2026-03-01', null, 600_000)], { day: '2026-03-01', sumMicros: 1_100_000 }],
    ['the other ends the day it starts', setting('2026-03-01', null, 500_000), [setting('2026-01-01', '2026-03-01', 600_000)], null],
    ['the other starts the day it ends', setting('2026-01-01', '2026-03-01', 500_000), [setting('2026-03-01', null, 600_000)], null],
    [
      'only where three overlap',
      setting('2026-01-01', null, 400_000),
      [setting('2026-01-01', '2026-02-01', 300_000), setting('2026-02-01', null, 300_000), setting('2026-03-01', '2026-04-01', 300_001)],
      { day: '2026-03-01', sumMicros: 1_000_001 },
    ],
  ] as const)('%s', (_, changed, others, expected) => {
    expect(firstDayOverOne(changed, others)).toEqual(expected);
  });
});

describe('what a change of a setting re-balances', () => {
  const keys: DatedAllocationKey[] = [
    { key: 'static', validFrom: '2026-03-01' },
    { key: 'dynamic', validFrom: '2026-05-01' },
  ];
  const base = { meterId: 'm1', balancing: 'participant' as const, startDate: '2026-01-01', endDate: null, priority: 1, shareMicros: 300_000 };

  it.each([
    ['a new setting: its period', null, base, [{ startDate: '2026-01-01', endDate: null }]],
    ['nothing changed: nothing', base, base, []],
    ['another end: both periods', base, { ...base, endDate: '2026-04-01' }, [{ startDate: '2026-01-01', endDate: null }, { startDate: '2026-01-01', endDate: '2026-04-01' }]],
    ['another meter: both periods', base, { ...base, meterId: 'm2' }, [{ startDate: '2026-01-01', endDate: null }, { startDate: '2026-01-01', endDate: null }]],
    ['another priority: where the priority key is in force', base, { ...base, priority: 2 }, [{ startDate: '2026-01-01', endDate: '2026-03-01' }]],
    ['another share: where the static key is in force', base, { ...base, shareMicros: 200_000 }, [{ startDate: '2026-03-01', endDate: '2026-05-01' }]],
    ['a share on a setting from the dynamic key on: nothing', { ...base, startDate: '2026-06-01' }, { ...base, startDate: '2026-06-01', shareMicros: null }, []],
  ] as const)('%s', (_, before, after, expected) => {
    expect(periodsRebalanced(before, after, keys)).toEqual(expected);
  });
});

describe('invoiced periods a re-balance would change', () => {
  const invoice = (invoiceId: string, startDate: string, endDate: string): InvoicedPeriod => ({ invoiceId, number: `INV-${invoiceId}`, startDate, endDate });
  const invoiced = [invoice('march', '2026-03-01', '2026-04-01'), invoice('february', '2026-02-01', '2026-03-01')];

  it.each([
    ['from the day an invoice ends', [{ startDate: '2026-04-01', endDate: null }], null],
    ['from its last day', [{ startDate: '2026-03-31', endDate: null }], 'march'],
    ['until the day one starts', [{ startDate: '2026-01-01', endDate: '2026-02-01' }], null],
    ['until its first day', [{ startDate: '2026-01-01', endDate: '2026-02-02' }], 'february'],
    ['over both: the earlier', [{ startDate: '2026-01-01', endDate: null }], 'february'],
    ['one of several periods', [{ startDate: '2026-01-01', endDate: '2026-01-15' }, { startDate: '2026-03-10', endDate: '2026-03-11' }], 'march'],
    ['no period', [], null],
  ] as const)('%s', (_, periods, expected) => {
    expect(invoicedOverlap(invoiced, periods)?.invoiceId ?? null).toBe(expected);
  });
});

describe('changes held back inside invoiced periods', () => {
  const h = (hour: number) => Date.parse('2026-03-02T00:00:00.000Z') + hour * 3_600_000;
  // Invoiced [2:00, 4:00) and, overlapping, [3:00, 6:00) of another contract.
  const invoiced = [
    { from: h(3), to: h(6), invoiceId: 'b' },
    { from: h(2), to: h(4), invoiceId: 'a' },
  ];

  it.each([
    ['before', { from: h(0), to: h(1) }, [{ from: h(0), to: h(1) }], []],
    ['ending at the first instant', { from: h(0), to: h(2) }, [{ from: h(0), to: h(2) - 1 }], [{ from: h(2), to: h(2), invoiceId: 'a' }]],
    ['inside', { from: h(2.5), to: h(2.75) }, [], [{ from: h(2.5), to: h(2.75), invoiceId: 'a' }]],
    [
      'across both and beyond',
      { from: h(1), to: h(7) },
      [{ from: h(1), to: h(2) - 1 }, { from: h(6), to: h(7) }],
      [
        { from: h(2), to: h(4) - 1, invoiceId: 'a' },
        { from: h(4), to: h(6) - 1, invoiceId: 'b' },
      ],
    ],
    ['from the instant the last ends', { from: h(6), to: h(8) }, [{ from: h(6), to: h(8) }], []],
  ] as const)('%s', (_, range, balance, held) => {
    expect(holdBack([range], invoiced)).toEqual({ balance, held });
  });
});
