import type { InvoicedPeriod } from '../domain/balancing/invoiced-periods.js';
import type { Flow, IntervalState, SiteBalance } from '../domain/balancing/site-balance.js';

export interface DirtyRange {
  from: number;
  /** Inclusive: the last changed instant. */
  to: number;
}

export interface StoredFlow extends Flow {
  siteId: string;
}

export interface FlowFilter {
  siteId?: string;
  debitorMeterId?: string;
  creditorMeterId?: string;
}

/** A changed range inside the period of an issued invoice, not balanced while the invoice stands. */
export interface HeldRange extends DirtyRange {
  invoiceId: string;
}

export interface BalancingStatusRow {
  lastBalancedAt: number | null;
  incompleteIntervals: number;
  firstIncompleteAt: number | null;
  /** Pending, not held. */
  dirtyRanges: number;
  held: HeldRange[];
}

export interface BalancingRepository {
  /**
   * In the ingest transaction, under the meters' locks: records which balanced sites (or sites with
   * virtual meters) the changed meters belong to and the changed range, and returns those sites.
   * The drafts of contracts with a changed meter whose period comes within MAX_INTERPOLATION_GAP_MS
   * (48 hours) of its change (a reading there enters the period's consumption) are outdated; a
   * draft being issued is waited for and then left alone (its correction stays stored under the
   * issued invoice).
   */
  markDirty(accountId: string, changes: readonly { meterId: string; from: number; to: number }[]): Promise<string[]>;
  /**
   * In the transaction of a change of the site's key or settings: records the ranges (`to` null:
   * open) for the worker, cut at the last day balanced so far (later days get balanced when their
   * data arrives); a range after it is left out.
   */
  markSiteDirty(accountId: string, siteId: string, ranges: readonly { from: number; to: number | null }[]): Promise<void>;
  /** Invoices (kind invoice, issued or paid) of contracts on the site whose period ends after `from` (a date). */
  invoicedPeriods(accountId: string, siteId: string, from: string): Promise<InvoicedPeriod[]>;
  /** Serialises balancing of one site across workers (until the transaction ends). */
  lockSite(accountId: string, siteId: string): Promise<void>;
  /**
   * Holds off balancing of these sites until the transaction ends (other holders share it): the
   * results read meanwhile stay current, and a balancing after it sees what was written with them.
   */
  holdSites(accountId: string, siteIds: readonly string[]): Promise<void>;
  /** Removes and returns the site's pending ranges, not the held ones (restored by a rollback). */
  takeDirty(accountId: string, siteId: string): Promise<DirtyRange[]>;
  /**
   * Replaces the results of these UTC days with the given flows (one by one, and as the series of
   * `balance`) and interval states. `splitOf` gives each UTC day's split at local midnight
   * (`localDaySplit`) for the per-local-day totals.
   */
  replaceDays(
    accountId: string,
    siteId: string,
    days: readonly string[],
    flows: readonly Flow[],
    states: readonly IntervalState[],
    splitOf: (day: string) => number,
    balance?: Pick<SiteBalance, 'buckets' | 'series'>,
  ): Promise<void>;
  /** Keeps ranges held back under their invoices (the worker takes them when released). */
  hold(accountId: string, siteId: string, held: readonly HeldRange[]): Promise<void>;
  /** For the sweeper: ranges whose invoice is no longer issued or paid (cancelled) become pending again. */
  releaseHeld(): Promise<void>;
  /** The stored states of the intervals in [from, to). */
  storedStates(accountId: string, siteId: string, from: number, to: number): Promise<IntervalState[]>;
  /** Stored flows in [from, to) matching the filter. */
  flows(accountId: string, filter: FlowFilter, from: number, to: number): Promise<StoredFlow[]>;
  status(accountId: string, siteId: string): Promise<BalancingStatusRow>;
  /** Sites with pending (not held) ranges, for the sweeper that re-enqueues lost jobs. */
  dirtySites(): Promise<{ accountId: string; siteId: string }[]>;
}
