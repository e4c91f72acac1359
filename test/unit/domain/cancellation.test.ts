import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isConsumer, nextCancellation, type CancellationTerms } from '../../../core/domain/contracts/cancellation.js';
import {
  addDuration,
  earliestEndAfterNotice,
  ONE_MONTH,
  parseTermDuration,
  subtractDuration,
  type TermDuration,
} from '../../../core/domain/contracts/term-duration.js';
import { addDays } from '../../../core/domain/time/calendar-date.js';

const terms = (extra: Partial<CancellationTerms>): CancellationTerms => ({
  startDate: '2026-01-01',
  endDate: null,
  minimumTermEndDate: null,
  noticePeriod: null,
  renewalPeriod: null,
  ...extra,
});

describe('term durations', () => {
  it.each([
    ['P1M', { months: 1, days: 0 }],
    ['P3M', { months: 3, days: 0 }],
    ['P14D', { months: 0, days: 14 }],
    ['P6W', { months: 0, days: 42 }],
    ['P1Y', { months: 12, days: 0 }],
    ['P1Y6M', { months: 18, days: 0 }],
    ['P2M15D', { months: 2, days: 15 }],
    ['P999D', { months: 0, days: 999 }],
  ])('%s is %o', (text, duration) => {
    expect(parseTermDuration(text)).toEqual(duration);
  });

  it.each(['', 'P', 'P0M', 'P0D', 'P01M', 'P1.5M', 'p1m', 'P1m', 'PT1H', 'P1DT1H', 'P1W2D', 'P1M1Y', '1M', 'P1000D', ' P1M', 'P-1M', 'P1Y0M', 'P1M '])(
    '%j is not a term duration',
    (text) => {
      expect(parseTermDuration(text)).toBeNull();
    },
  );

  it.each([
    ['2027-01-01', 'P3M', '2026-10-01'],
    ['2026-03-31', 'P1M', '2026-02-28'],
    ['2024-03-31', 'P1M', '2024-02-29'],
    ['2026-03-10', 'P14D', '2026-02-24'],
    ['2026-03-01', 'P1M2D', '2026-01-30'],
    ['2027-01-01', 'P6W', '2026-11-20'],
    ['2027-02-28', 'P1Y', '2026-02-28'],
  ])('%s minus %s is %s', (date, text, expected) => {
    expect(subtractDuration(date, parseTermDuration(text)!)).toBe(expected);
  });

  it('counts repeated terms from the first, so month ends do not drift', () => {
    const month = parseTermDuration('P1M')!;
    expect([1, 2, 3].map((k) => addDuration('2026-01-31', month, k))).toEqual(['2026-02-28', '2026-03-31', '2026-04-30']);
  });

  it.each([
    ['2026-01-15', 'P1M', '2026-02-15'],
    ['2026-02-28', 'P1M', '2026-03-28'],
    // 2026-02-28 minus a month is 2026-01-28, too early; the first end whose notice day is 01-31 or later is 03-01.
    ['2026-01-31', 'P1M', '2026-03-01'],
    ['2026-12-01', 'P6W', '2027-01-12'],
  ])('notice from %s with %s reaches %s at the earliest', (day, text, end) => {
    const notice = parseTermDuration(text)!;
    expect(earliestEndAfterNotice(day, notice)).toBe(end);
    expect(subtractDuration(end, notice) >= day).toBe(true);
    expect(subtractDuration(addDays(end, -1), notice) < day).toBe(true);
  });
});

describe('the next cancellation', () => {
  const consumerWithMinimumTerm = terms({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P3M' });
  const businessRenewing = terms({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P3M', renewalPeriod: 'P1Y' });

  it.each<[string, CancellationTerms, boolean, string, { noticeBy: string | null; endsOn: string } | null]>([
    ['consumer, within the minimum term: its end, full notice', consumerWithMinimumTerm, true, '2026-06-15', { noticeBy: '2026-10-01', endsOn: '2027-01-01' }],
    ['consumer, on the last day of notice for the minimum term', consumerWithMinimumTerm, true, '2026-10-01', { noticeBy: '2026-10-01', endsOn: '2027-01-01' }],
    [
      'consumer, a day too late: the day after the minimum term, a month of notice',
      consumerWithMinimumTerm,
      true,
      '2026-10-02',
      { noticeBy: '2026-12-02', endsOn: '2027-01-02' },
    ],
    [
      'consumer, minimum term long over: any day, at most a month of notice',
      terms({ startDate: '2024-01-01', minimumTermEndDate: '2025-01-01', noticePeriod: 'P3M' }),
      true,
      '2026-03-15',
      { noticeBy: '2026-03-15', endsOn: '2026-04-15' },
    ],
    ['consumer, notice shorter than a month is kept', terms({ startDate: '2024-01-01', noticePeriod: 'P14D' }), true, '2026-03-15', { noticeBy: '2026-03-15', endsOn: '2026-03-29' }],
    ['consumer, month end: the first end a month of notice from 01-31 reaches', terms({ startDate: '2024-01-01', noticePeriod: 'P1M' }), true, '2026-01-31', { noticeBy: '2026-02-01', endsOn: '2026-03-01' }],
    ['consumer, issued before the start: never on or before the start', terms({ startDate: '2026-06-01', noticePeriod: 'P1M' }), true, '2026-04-10', { noticeBy: '2026-05-02', endsOn: '2026-06-02' }],
    ['consumer, renewalPeriod ignored', { ...consumerWithMinimumTerm, renewalPeriod: 'P1Y' }, true, '2026-10-02', { noticeBy: '2026-12-02', endsOn: '2027-01-02' }],
    ['business, within the minimum term', businessRenewing, false, '2026-06-15', { noticeBy: '2026-10-01', endsOn: '2027-01-01' }],
    ['business, too late for the minimum term: the end of the first renewal', businessRenewing, false, '2026-10-02', { noticeBy: '2027-10-01', endsOn: '2028-01-01' }],
    ['business, years later: the end of the current renewal', businessRenewing, false, '2029-05-05', { noticeBy: '2029-10-01', endsOn: '2030-01-01' }],
    ['business, years later, too late for the current renewal', businessRenewing, false, '2029-10-02', { noticeBy: '2030-10-01', endsOn: '2031-01-01' }],
    [
      'business without a minimum term: terms from the start',
      terms({ startDate: '2026-03-01', noticePeriod: 'P1M', renewalPeriod: 'P6M' }),
      false,
      '2026-02-15',
      { noticeBy: '2026-08-01', endsOn: '2026-09-01' },
    ],
    [
      'business, monthly terms from a month end do not drift',
      terms({ startDate: '2025-01-31', minimumTermEndDate: '2026-01-31', noticePeriod: 'P14D', renewalPeriod: 'P1M' }),
      false,
      '2026-03-05',
      { noticeBy: '2026-03-17', endsOn: '2026-03-31' },
    ],
    [
      'business without renewal: any day after the minimum term, full notice',
      terms({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P6W' }),
      false,
      '2026-12-01',
      { noticeBy: '2026-12-01', endsOn: '2027-01-12' },
    ],
    ['business without renewal, within the minimum term', terms({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P6W' }), false, '2026-06-01', { noticeBy: '2026-11-20', endsOn: '2027-01-01' }],
    ['an end already set: that end, no notice', { ...businessRenewing, endDate: '2026-07-01' }, false, '2026-06-15', { noticeBy: null, endsOn: '2026-07-01' }],
    ['an end already set and past: still that end', { ...consumerWithMinimumTerm, endDate: '2026-07-01' }, true, '2026-09-15', { noticeBy: null, endsOn: '2026-07-01' }],
    ['no end and no notice period: nothing to say', terms({ minimumTermEndDate: '2027-01-01' }), true, '2026-06-15', null],
  ])('%s', (_, contract, consumer, issueDate, expected) => {
    expect(nextCancellation(contract, consumer, issueDate)).toEqual(expected);
  });

  it('calls customers without a company name consumers', () => {
    expect(isConsumer({ companyName: null })).toBe(true);
    expect(isConsumer({ companyName: 'Stadtwerke Beispiel GmbH' })).toBe(false);
  });
});

// ---- The property: the answer is the first day the rule allows, checked day by day. ----

const day = (offset: number) => addDays('2024-01-01', offset);

const durationText = fc.oneof(
  fc.integer({ min: 1, max: 8 }).map((weeks) => `P${weeks}W`),
  fc
    .tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 45 }))
    .filter(([y, m, d]) => y + m + d > 0)
    .map(([y, m, d]) => `P${y ? `${y}Y` : ''}${m ? `${m}M` : ''}${d ? `${d}D` : ''}`),
);

const scenario = fc
  .record({
    start: fc.integer({ min: 0, max: 1000 }),
    minimumTerm: fc.option(fc.integer({ min: 1, max: 800 }), { nil: null }),
    noticePeriod: durationText,
    renewalPeriod: fc.option(durationText, { nil: null }),
    consumer: fc.boolean(),
    // Near the start, decades later (terms far from their anchor), or on and around the last notice day for the minimum term's end.
    issue: fc.oneof(fc.integer({ min: -100, max: 1500 }), fc.integer({ min: 1500, max: 15_000 }), fc.constantFrom(-1, 0, 1).map((shift) => ({ shift }))),
  })
  .map(({ start, minimumTerm, noticePeriod, renewalPeriod, consumer, issue }) => {
    const contract = terms({ startDate: day(start), minimumTermEndDate: minimumTerm === null ? null : day(start + minimumTerm), noticePeriod, renewalPeriod });
    const lastNoticeDay = subtractDuration(contract.minimumTermEndDate ?? contract.startDate, parseTermDuration(noticePeriod)!);
    return { contract, consumer, issueDate: typeof issue === 'number' ? day(start + issue) : addDays(lastNoticeDay, issue.shift) };
  });

const later = (a: string, b: string) => (a > b ? a : b);

/** The rule as written, for one end day: the last day notice may be given to end then, or null when the contract cannot end then. */
function noticeDayFor(contract: CancellationTerms, consumer: boolean, termEnds: ReadonlySet<string>, end: string): string | null {
  const notice = parseTermDuration(contract.noticePeriod!)!;
  const minimum = contract.minimumTermEndDate;
  if (end <= contract.startDate || (minimum !== null && end < minimum)) return null;
  if (consumer) {
    if (end === minimum) return subtractDuration(end, notice);
    return later(subtractDuration(end, notice), subtractDuration(end, ONE_MONTH));
  }
  if (contract.renewalPeriod === null || end === minimum) return subtractDuration(end, notice);
  return termEnds.has(end) ? subtractDuration(end, notice) : null;
}

function termEndsUntil(contract: CancellationTerms, until: string): Set<string> {
  const ends = new Set<string>();
  if (contract.renewalPeriod === null) return ends;
  const renewal: TermDuration = parseTermDuration(contract.renewalPeriod)!;
  const anchor = contract.minimumTermEndDate ?? contract.startDate;
  for (let k = contract.minimumTermEndDate === null ? 1 : 0; ; k++) {
    const end = addDuration(anchor, renewal, k);
    if (end > until) return ends;
    ends.add(end);
  }
}

describe('the next cancellation, for any terms', () => {
  it('gives notice no earlier than the issue date, the notice period exactly before the end, never before the minimum term ends, and nothing earlier fits', () => {
    fc.assert(
      fc.property(scenario, ({ contract, consumer, issueDate }) => {
        const answer = nextCancellation(contract, consumer, issueDate)!;
        const { noticeBy, endsOn } = answer as { noticeBy: string; endsOn: string };
        const notice = parseTermDuration(contract.noticePeriod!)!;
        const minimum = contract.minimumTermEndDate;

        expect(noticeBy >= issueDate).toBe(true);
        expect(endsOn > contract.startDate).toBe(true);
        if (minimum !== null) expect(endsOn >= minimum).toBe(true);
        // endsOn − noticePeriod == noticeBy, with the notice period the rule uses: a consumer's is
        // at most a month once the minimum term is over.
        const reduced = consumer && endsOn !== minimum;
        expect(noticeBy).toBe(reduced ? later(subtractDuration(endsOn, notice), subtractDuration(endsOn, ONE_MONTH)) : subtractDuration(endsOn, notice));
        if (!consumer && contract.renewalPeriod !== null && endsOn !== minimum) {
          const renewal = parseTermDuration(contract.renewalPeriod)!;
          const anchor = minimum ?? contract.startDate;
          expect(termEndsUntil(contract, endsOn).has(endsOn), `${endsOn} ends a term of ${anchor} + k × ${JSON.stringify(renewal)}`).toBe(true);
        }

        // Nothing earlier satisfies the rule: every end day from the issue date on, one by one.
        const termEnds = termEndsUntil(contract, endsOn);
        for (let candidate = issueDate; candidate < endsOn; candidate = addDays(candidate, 1)) {
          const latestNotice = noticeDayFor(contract, consumer, termEnds, candidate);
          expect(latestNotice !== null && latestNotice >= issueDate, `${candidate} would do: notice by ${latestNotice}`).toBe(false);
        }
        expect(noticeDayFor(contract, consumer, termEnds, endsOn)).toBe(noticeBy);
      }),
      { numRuns: 300 },
    );
  });

  it('answers an end already set, whatever the other terms say', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 2000 }), ({ contract, consumer, issueDate }, length) => {
        const endDate = addDays(contract.startDate, length);
        expect(nextCancellation({ ...contract, endDate }, consumer, issueDate)).toEqual({ noticeBy: null, endsOn: endDate });
      }),
    );
  });
});
