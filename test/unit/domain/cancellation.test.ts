import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isConsumer, lastNoticeDay, nextCancellation, type CancellationTerms } from '../../../core/domain/contracts/cancellation.js';
import { addDuration, ONE_MONTH, parseTermDuration, type TermDuration } from '../../../core/domain/contracts/term-duration.js';
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

  it('counts repeated terms from the first, so month ends do not drift', () => {
    const month = parseTermDuration('P1M')!;
    expect([1, 2, 3].map((k) => addDuration('2026-01-31', month, k))).toEqual(['2026-02-28', '2026-03-31', '2026-04-30']);
  });
});

const day = (offset: number) => addDays('2024-01-01', offset);

const durationText = fc.oneof(
  fc.integer({ min: 1, max: 8 }).map((weeks) => `P${weeks}W`),
  fc
    .tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 45 }))
    .filter(([y, m, d]) => y + m + d > 0)
    .map(([y, m, d]) => `P${y ? `${y}Y` : ''}${m ? `${m}M` : ''}${d ? `${d}D` : ''}`),
);

/**
 * §187 (1), §188 (1) to (3) BGB: notice received on `noticeDay` starts the period the next day; it
 * ends with the day of the last month whose number is that of `noticeDay` (the month's last day
 * when it has none), or with its last day when counted in days or weeks. That is
 * addDuration(noticeDay, period). In time to end on `endsOn` (exclusive) when it has ended by the
 * last supplied day, endsOn - 1.
 */
const inTime = (noticeDay: string, period: TermDuration, endsOn: string) => addDuration(noticeDay, period) < endsOn;

describe('the last notice day', () => {
  it.each([
    // The three examples of the rule: "bis 30.11. zum 31.12."; notice on 31 January ends a month
    // with 28 February; 14 days from 15 March end with 28 March.
    ['2027-01-01', 'P1M', '2026-11-30'],
    ['2026-03-01', 'P1M', '2026-01-31'],
    ['2026-03-29', 'P14D', '2026-03-14'],
    // Notice on 28 February ends a month with 28 March (§188 (2)): in time for any last day from 28
    // to 31 March. For the first three of them that is a day later than (endsOn - P1M) - 1 day.
    ['2026-03-29', 'P1M', '2026-02-28'],
    ['2026-03-31', 'P1M', '2026-02-28'],
    ['2026-04-01', 'P1M', '2026-02-28'],
    ['2024-03-01', 'P1M', '2024-01-31'],
    ['2026-05-01', 'P1M', '2026-03-31'],
    ['2027-01-01', 'P3M', '2026-09-30'],
    ['2027-01-01', 'P6W', '2026-11-19'],
    ['2027-01-01', 'P1Y', '2025-12-31'],
    // A month and two days from 1 February: the month ends with 1 March, the two days with 3 March.
    ['2026-03-04', 'P1M2D', '2026-02-01'],
  ])('to end on %s with %s: notice by %s', (endsOn, text, noticeBy) => {
    const period = parseTermDuration(text)!;
    expect(lastNoticeDay(endsOn, period)).toBe(noticeBy);
    expect(inTime(noticeBy, period, endsOn)).toBe(true);
    expect(inTime(addDays(noticeBy, 1), period, endsOn)).toBe(false);
  });

  it('is the last day from which the period ends before the end, for any end and period', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), durationText, (offset, text) => {
        const endsOn = day(offset);
        const period = parseTermDuration(text)!;
        // Day by day back from the last supplied day to the first one whose period ends by then.
        let expected = addDays(endsOn, -1);
        while (!inTime(expected, period, endsOn)) expected = addDays(expected, -1);
        expect(lastNoticeDay(endsOn, period)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the next cancellation', () => {
  const consumerWithMinimumTerm = terms({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P3M' });
  const businessRenewing = terms({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P3M', renewalPeriod: 'P1Y' });

  it.each<[string, CancellationTerms, boolean, string, { noticeBy: string | null; endsOn: string } | null]>([
    // Notice on 30 September: three months from 1 October end with 30 December, in time for 31 December.
    ['consumer, within the minimum term: its end, full notice', consumerWithMinimumTerm, true, '2026-06-15', { noticeBy: '2026-09-30', endsOn: '2027-01-01' }],
    ['consumer, on the last day of notice for the minimum term', consumerWithMinimumTerm, true, '2026-09-30', { noticeBy: '2026-09-30', endsOn: '2027-01-01' }],
    [
      // Notice on 1 October would end three months with 1 January; a month ends with 1 November, but
      // the contract may end on no day before 2 January (last day 1 January), and notice to end then
      // is in time until 1 December (a month from 2 December ends with 2 January).
      'consumer, a day too late (the old deadline): the day after the minimum term, a month of notice',
      consumerWithMinimumTerm,
      true,
      '2026-10-01',
      { noticeBy: '2026-12-01', endsOn: '2027-01-02' },
    ],
    [
      // A month from 15 March ends with 15 April, the last supplied day.
      'consumer, minimum term long over: any day, at most a month of notice',
      terms({ startDate: '2024-01-01', minimumTermEndDate: '2025-01-01', noticePeriod: 'P3M' }),
      true,
      '2026-03-15',
      { noticeBy: '2026-03-15', endsOn: '2026-04-16' },
    ],
    ['consumer, notice shorter than a month is kept', terms({ startDate: '2024-01-01', noticePeriod: 'P14D' }), true, '2026-03-15', { noticeBy: '2026-03-15', endsOn: '2026-03-30' }],
    // The examples of §187 (1), §188 (2) and (3) BGB: notice on X starts the period on X + 1 and a
    // period of months ends with the day numbered X of the last month (its last day when it has
    // none), a period of days with its last day; the contract ends on a last supplied day by which
    // the period has ended.
    // - P1M to end with 31 December (endsOn 2027-01-01): notice by 30 November, "bis 30.11. zum 31.12.";
    //   notice on 1 December ends the month with 1 January, so the next end is the day after.
    ['consumer, a month to end the minimum term: "bis 30.11. zum 31.12."', terms({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P1M' }), true, '2026-11-30', { noticeBy: '2026-11-30', endsOn: '2027-01-01' }],
    ['consumer, a month, on 1 December (the old deadline): a day later', terms({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P1M' }), true, '2026-12-01', { noticeBy: '2026-12-01', endsOn: '2027-01-02' }],
    // - P1M from 31 January: the month ends with 28 February (§188 (3)), so the contract ends with it (endsOn 2026-03-01).
    ['consumer, month end: notice on 01-31 ends with February', terms({ startDate: '2024-01-01', noticePeriod: 'P1M' }), true, '2026-01-31', { noticeBy: '2026-01-31', endsOn: '2026-03-01' }],
    // - P14D to end with 28 March (endsOn 2026-03-29): 14 days from 15 March end with 28 March, so notice by 14 March.
    ['consumer, 14 days: notice on 14 March ends with 28 March', terms({ startDate: '2024-01-01', noticePeriod: 'P14D' }), true, '2026-03-14', { noticeBy: '2026-03-14', endsOn: '2026-03-29' }],
    [
      // It ends after a day of supply at the earliest (endsOn 2 June, last day 1 June); a month from 1 May ends with 1 June.
      'consumer, issued before the start: never on or before the start',
      terms({ startDate: '2026-06-01', noticePeriod: 'P1M' }),
      true,
      '2026-04-10',
      { noticeBy: '2026-05-01', endsOn: '2026-06-02' },
    ],
    ['consumer, renewalPeriod ignored', { ...consumerWithMinimumTerm, renewalPeriod: 'P1Y' }, true, '2026-10-02', { noticeBy: '2026-12-01', endsOn: '2027-01-02' }],
    ['business, within the minimum term', businessRenewing, false, '2026-06-15', { noticeBy: '2026-09-30', endsOn: '2027-01-01' }],
    ['business, a day too late for the minimum term (the old deadline): the end of the first renewal', businessRenewing, false, '2026-10-01', { noticeBy: '2027-09-30', endsOn: '2028-01-01' }],
    ['business, years later: the end of the current renewal', businessRenewing, false, '2029-05-05', { noticeBy: '2029-09-30', endsOn: '2030-01-01' }],
    ['business, years later, too late for the current renewal', businessRenewing, false, '2029-10-01', { noticeBy: '2030-09-30', endsOn: '2031-01-01' }],
    [
      // The first term ends with 31 August; a month from 31 July ends with it.
      'business without a minimum term: terms from the start',
      terms({ startDate: '2026-03-01', noticePeriod: 'P1M', renewalPeriod: 'P6M' }),
      false,
      '2026-02-15',
      { noticeBy: '2026-07-31', endsOn: '2026-09-01' },
    ],
    [
      // Terms end on 01-31, 02-28, 03-31: the last supplied day 30 March is 14 days from 16 March.
      'business, monthly terms from a month end do not drift',
      terms({ startDate: '2025-01-31', minimumTermEndDate: '2026-01-31', noticePeriod: 'P14D', renewalPeriod: 'P1M' }),
      false,
      '2026-03-05',
      { noticeBy: '2026-03-16', endsOn: '2026-03-31' },
    ],
    [
      // Six weeks from 1 December end with 12 January.
      'business without renewal: any day after the minimum term, full notice',
      terms({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P6W' }),
      false,
      '2026-12-01',
      { noticeBy: '2026-12-01', endsOn: '2027-01-13' },
    ],
    // Six weeks from 19 November end with 31 December.
    ['business without renewal, within the minimum term', terms({ minimumTermEndDate: '2027-01-01', noticePeriod: 'P6W' }), false, '2026-06-01', { noticeBy: '2026-11-19', endsOn: '2027-01-01' }],
    [
      // A month from 28 February ends with 28 March (§188 (2)), the last supplied day: in time, a day
      // later than (endsOn - P1M) - 1 day = 27 February.
      'business, a month ending on the 28th from 28 February',
      terms({ minimumTermEndDate: '2026-03-29', noticePeriod: 'P1M' }),
      false,
      '2026-02-28',
      { noticeBy: '2026-02-28', endsOn: '2026-03-29' },
    ],
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
    const deadline = lastNoticeDay(contract.minimumTermEndDate ?? contract.startDate, parseTermDuration(noticePeriod)!);
    return { contract, consumer, issueDate: typeof issue === 'number' ? day(start + issue) : addDays(deadline, issue.shift) };
  });

const later = (a: string, b: string) => (a > b ? a : b);

/**
 * The rule as written, for one end day: whether the contract may end on `end` and notice received
 * on `noticeDay` is in time for it (see inTime), with the notice period the rule uses there.
 */
function inTimeFor(contract: CancellationTerms, consumer: boolean, termEnds: ReadonlySet<string>, end: string, noticeDay: string): boolean {
  const notice = parseTermDuration(contract.noticePeriod!)!;
  const minimum = contract.minimumTermEndDate;
  if (end <= contract.startDate || (minimum !== null && end < minimum)) return false;
  if (consumer) {
    if (end === minimum) return inTime(noticeDay, notice, end);
    return inTime(noticeDay, notice, end) || inTime(noticeDay, ONE_MONTH, end);
  }
  if (contract.renewalPeriod === null || end === minimum) return inTime(noticeDay, notice, end);
  return termEnds.has(end) && inTime(noticeDay, notice, end);
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
  it('gives notice no earlier than the issue date, on the last day in time for the end, never before the minimum term ends, and nothing earlier fits', () => {
    fc.assert(
      fc.property(scenario, ({ contract, consumer, issueDate }) => {
        const answer = nextCancellation(contract, consumer, issueDate)!;
        const { noticeBy, endsOn } = answer as { noticeBy: string; endsOn: string };
        const notice = parseTermDuration(contract.noticePeriod!)!;
        const minimum = contract.minimumTermEndDate;

        expect(noticeBy >= issueDate).toBe(true);
        expect(endsOn > contract.startDate).toBe(true);
        if (minimum !== null) expect(endsOn >= minimum).toBe(true);
        // noticeBy == lastNoticeDay(endsOn, notice), with the notice period the rule uses: a
        // consumer's is at most a month once the minimum term is over.
        const reduced = consumer && endsOn !== minimum;
        expect(noticeBy).toBe(reduced ? later(lastNoticeDay(endsOn, notice), lastNoticeDay(endsOn, ONE_MONTH)) : lastNoticeDay(endsOn, notice));
        if (!consumer && contract.renewalPeriod !== null && endsOn !== minimum) {
          const renewal = parseTermDuration(contract.renewalPeriod)!;
          const anchor = minimum ?? contract.startDate;
          expect(termEndsUntil(contract, endsOn).has(endsOn), `${endsOn} ends a term of ${anchor} + k × ${JSON.stringify(renewal)}`).toBe(true);
        }

        // Nothing earlier satisfies the rule: notice received on the issue date is in time for no end
        // day before endsOn, checked one by one.
        const termEnds = termEndsUntil(contract, endsOn);
        for (let candidate = issueDate; candidate < endsOn; candidate = addDays(candidate, 1)) {
          expect(inTimeFor(contract, consumer, termEnds, candidate, issueDate), `${candidate} would do with notice on ${issueDate}`).toBe(false);
        }
        // noticeBy is the last day in time for endsOn: notice a day later is too late.
        expect(inTimeFor(contract, consumer, termEnds, endsOn, noticeBy), `notice on ${noticeBy} ends on ${endsOn}`).toBe(true);
        expect(inTimeFor(contract, consumer, termEnds, endsOn, addDays(noticeBy, 1)), `notice on the day after ${noticeBy} ends on ${endsOn}`).toBe(false);
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
