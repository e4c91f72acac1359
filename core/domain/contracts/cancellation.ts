import { addDays, daysBetween } from '../time/calendar-date.js';
import type { Contract } from './contract.js';
import { addDuration, lastStartEndingBy, ONE_MONTH, parseTermDuration, type TermDuration } from './term-duration.js';

/** What the cancellation rule reads of a contract: calendar dates (YYYY-MM-DD), exclusive ends. */
export type CancellationTerms = Pick<Contract, 'startDate' | 'endDate' | 'minimumTermEndDate' | 'noticePeriod' | 'renewalPeriod'>;

/**
 * "Notice by `noticeBy` to end on `endsOn`". `endsOn` is exclusive like every end (the first day no
 * longer supplied). `noticeBy` is the last day on which notice is in time, see lastNoticeDay: notice
 * received that day lets the notice period end by the last supplied day, notice received a day
 * later does not. Null when no notice is needed.
 */
export interface Cancellation {
  noticeBy: string | null;
  endsOn: string;
}

/** "Consumers (customers without `companyName`)": everyone else is a business customer. */
export function isConsumer(customer: { companyName: string | null }): boolean {
  return customer.companyName === null;
}

const later = (a: string, b: string) => (a > b ? a : b);
const earlier = (a: string, b: string) => (a < b ? a : b);

/**
 * The last day on which notice with a notice period of `period` is in time to end on `endsOn`
 * (exclusive, so the last supplied day is `endsOn` - 1 day). "A notice received on day X starts
 * the notice period on X + 1 (§187 (1) BGB); a period of months ends at the end of the day of the
 * last month whose number equals X, or the month's last day when that day does not exist (§188 (2)
 * and (3) BGB)", a period of days or weeks with its last day (§188 (1) and (2) BGB): so it ends
 * with addDuration(X, period) (months and days: the months first, then the days). "The contract can end on the last supplied day E = endsOn - 1 day
 * only if that period has ended by E": the answer is the last X with addDuration(X, period) <= E.
 * That is (endsOn - period) - 1 day, except where the month's day number is clamped: notice on
 * 2026-02-28 ends a month on 2026-03-28, so it is in time to end on 2026-03-29, 03-30 or 03-31.
 */
export function lastNoticeDay(endsOn: string, period: TermDuration): string {
  return lastStartEndingBy(addDays(endsOn, -1), period);
}

/** The earliest (exclusive) end that notice received on `day` reaches: the day after the notice period ends. The least E with lastNoticeDay(E, period) >= day. */
function earliestEndAfterNotice(day: string, period: TermDuration): string {
  return addDays(addDuration(day, period), 1);
}

function duration(value: string, field: string): TermDuration {
  const parsed = parseTermDuration(value);
  if (!parsed) throw new Error(`The contract's ${field} ${value} is not a term duration.`);
  return parsed;
}

/**
 * The earliest way out of a contract from `issueDate` on: the earliest end that notice given on
 * or after `issueDate` reaches, and the last day that notice may be given for it (lastNoticeDay
 * for the notice period used; notice received on `issueDate` itself still counts).
 *
 * - A contract with an `endDate` already set ends then, however the rules below would end it: that
 *   end was agreed or notice was already given, so nothing is asked of the customer
 *   (`noticeBy: null`), even when the end lies in the past.
 * - Without an end and without a `noticePeriod` the terms say nothing to print: null.
 * - "No minimum term: treat as already over." The minimum term is [startDate, minimumTermEndDate);
 *   a contract may end on `minimumTermEndDate` at the earliest, never before, and never on or
 *   before its `startDate`.
 * - Consumers "renew tacitly without a new term: after the minimum term they may end on any day
 *   with at most one month's notice (§309 no. 9 BGB) — so for a consumer the notice period used is
 *   min(noticePeriod, P1M) once the minimum term is over". Ending on `minimumTermEndDate` itself
 *   ends the minimum term and takes the full `noticePeriod`; every later day ends the tacitly
 *   renewed contract and takes the shorter of `noticePeriod` and one month, the shorter being the
 *   one whose notice day falls later before that end. A consumer's `renewalPeriod` is ignored.
 * - Business customers: "`renewalPeriod` applies to business customers only: after the minimum
 *   term the contract renews by `renewalPeriod` at a time, and ends only at the end of a term,
 *   notice given `noticePeriod` before." Terms end on minimumTermEndDate + k × renewalPeriod
 *   (k = 0, 1, …), each counted from minimumTermEndDate so that month ends do not drift; without a
 *   minimum term on startDate + k × renewalPeriod (k = 1, 2, …). Without a `renewalPeriod` a
 *   business contract runs on after its minimum term and may end on any day, with full notice.
 */
export function nextCancellation(terms: CancellationTerms, isConsumerCustomer: boolean, issueDate: string): Cancellation | null {
  if (terms.endDate !== null) return { noticeBy: null, endsOn: terms.endDate };
  if (terms.noticePeriod === null) return null;
  const notice = duration(terms.noticePeriod, 'noticePeriod');
  const minimumEnd = terms.minimumTermEndDate;
  // The first day after the minimum term (or after the start) that a renewed or open-ended contract may end on.
  const afterMinimum = addDays(minimumEnd ?? terms.startDate, 1);

  if (isConsumerCustomer) {
    if (minimumEnd !== null) {
      const noticeBy = lastNoticeDay(minimumEnd, notice);
      if (noticeBy >= issueDate) return { noticeBy, endsOn: minimumEnd };
    }
    const endsOn = later(afterMinimum, earlier(earliestEndAfterNotice(issueDate, notice), earliestEndAfterNotice(issueDate, ONE_MONTH)));
    // The shorter period is the one whose last notice day falls later.
    return { noticeBy: later(lastNoticeDay(endsOn, notice), lastNoticeDay(endsOn, ONE_MONTH)), endsOn };
  }

  if (terms.renewalPeriod === null) {
    const endsOn = later(minimumEnd ?? afterMinimum, earliestEndAfterNotice(issueDate, notice));
    return { noticeBy: lastNoticeDay(endsOn, notice), endsOn };
  }

  const renewal = duration(terms.renewalPeriod, 'renewalPeriod');
  const anchor = minimumEnd ?? terms.startDate;
  const first = minimumEnd === null ? 1 : 0;
  // No term k with k × (31 days per month + days) <= (issueDate - anchor) ends after issueDate, so
  // none of them can be reached by notice given from issueDate (its last notice day lies before its
  // end): start looking there.
  const longest = renewal.months * 31 + renewal.days;
  let k = Math.max(first, Math.floor(daysBetween(anchor, issueDate) / longest));
  for (;;) {
    const endsOn = addDuration(anchor, renewal, k);
    const noticeBy = lastNoticeDay(endsOn, notice);
    if (noticeBy >= issueDate) return { noticeBy, endsOn };
    k++;
  }
}
