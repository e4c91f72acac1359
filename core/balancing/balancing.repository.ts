import type { Flow, IntervalState } from '../domain/balancing/site-balance.js';

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

export interface BalancingStatusRow {
  lastBalancedAt: number | null;
  incompleteIntervals: number;
  firstIncompleteAt: number | null;
  dirtyRanges: number;
}

export interface BalancingRepository {
  /**
   * In the ingest transaction: records which balanced sites (or sites with virtual meters) the
   * changed meters belong to and the changed range; returns those sites.
   */
  markDirty(accountId: string, changes: readonly { meterId: string; from: number; to: number }[]): Promise<string[]>;
  /** Serialises balancing of one site across workers (until the transaction ends). */
  lockSite(accountId: string, siteId: string): Promise<void>;
  /** Removes and returns the site's pending ranges (restored by a rollback). */
  takeDirty(accountId: string, siteId: string): Promise<DirtyRange[]>;
  /** Replaces the results of these UTC days with the given flows and interval states. */
  /** `splitOf` gives each UTC day's split at local midnight (`localDaySplit`) for the per-local-day totals. */
  replaceDays(accountId: string, siteId: string, days: readonly string[], flows: readonly Flow[], states: readonly IntervalState[], splitOf: (day: string) => number): Promise<void>;
  /** Stored flows in [from, to) matching the filter. */
  flows(accountId: string, filter: FlowFilter, from: number, to: number): Promise<StoredFlow[]>;
  status(accountId: string, siteId: string): Promise<BalancingStatusRow>;
  /** Sites with pending ranges, for the sweeper that re-enqueues lost jobs. */
  dirtySites(): Promise<{ accountId: string; siteId: string }[]>;
}
