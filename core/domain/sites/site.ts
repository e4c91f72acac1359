import type { Address } from '../addresses/address.js';
import type { AllocationKey } from '../balancing/allocation.js';
import type { DatePeriod } from '../periods.js';

export const SITE_TYPES = ['balanced_accurate', 'balanced_inaccurate', 'unbalanced_accurate', 'unbalanced_inaccurate'] as const;
export type SiteType = (typeof SITE_TYPES)[number];

export const BALANCE_RESOLUTIONS = ['PT15M', 'P1M'] as const;
export type BalanceResolution = (typeof BALANCE_RESOLUTIONS)[number];

/** Accurate sites work per quarter hour, inaccurate ones per calendar month. */
export function resolutionOf(type: SiteType): BalanceResolution {
  return type.endsWith('_inaccurate') ? 'P1M' : 'PT15M';
}

export function isBalanced(type: SiteType): boolean {
  return type.startsWith('balanced_');
}

/** From `validFrom` (a date in the account timezone) on, the site's supply is shared by `key`. */
export interface DatedAllocationKey {
  key: AllocationKey;
  validFrom: string;
}

/** The key of a site that never chose one, and before the first dated key. */
export const DEFAULT_ALLOCATION_KEY: AllocationKey = 'priority';

export class Site {
  id!: string;
  accountId!: string;
  name!: string;
  type!: SiteType;
  balanceResolution!: BalanceResolution;
  /** Oldest first: intervals keep the key they were balanced with when a later one is set. */
  allocationKeys: DatedAllocationKey[] = [];
  address!: Address;
  customAttributes!: Record<string, unknown>;
  createdAt!: Date;
  updatedAt!: Date;
}

/** The key in force on a date: the latest dated key not after it. */
export function allocationKeyOn(keys: readonly DatedAllocationKey[], date: string): AllocationKey {
  let key = DEFAULT_ALLOCATION_KEY;
  for (const entry of keys) if (entry.validFrom <= date) key = entry.key;
  return key;
}

/** `allocationKeyOn` for the instants the worker balances: `startOf` gives the instant a date begins in the account timezone. */
export function allocationKeyAt(keys: readonly DatedAllocationKey[], startOf: (date: string) => number): (instant: number) => AllocationKey {
  const starts = keys.map((entry) => ({ key: entry.key, at: startOf(entry.validFrom) }));
  return (instant) => {
    let key = DEFAULT_ALLOCATION_KEY;
    for (const start of starts) if (start.at <= instant) key = start.key;
    return key;
  };
}

/**
 * The keys after setting `key` from `validFrom`: keys dated from then on give way. Setting the
 * current key with another date moves it (its old entry goes), so a site never shows a key from a
 * date it was not asked for.
 */
export function withAllocationKey(keys: readonly DatedAllocationKey[], key: AllocationKey, validFrom: string): DatedAllocationKey[] {
  const base = keys.at(-1)?.key === key ? keys.slice(0, -1) : keys;
  return [...base.filter((entry) => entry.validFrom < validFrom), { key, validFrom }];
}

/** The first date on which two key histories put different keys in force, or null: from there on a change re-balances. */
export function firstKeyDifference(before: readonly DatedAllocationKey[], after: readonly DatedAllocationKey[]): string | null {
  const dates = [...new Set([...before, ...after].map((entry) => entry.validFrom))].sort();
  return dates.find((date) => allocationKeyOn(before, date) !== allocationKeyOn(after, date)) ?? null;
}

/** The parts of `period` in which `key` is in force. */
export function periodsUnderKey(keys: readonly DatedAllocationKey[], period: DatePeriod, key: AllocationKey): DatePeriod[] {
  const inside = keys.filter((entry) => entry.validFrom > period.startDate && (period.endDate === null || entry.validFrom < period.endDate));
  const starts = [period.startDate, ...inside.map((entry) => entry.validFrom)];
  const periods: DatePeriod[] = [];
  starts.forEach((startDate, i) => {
    if (allocationKeyOn(keys, startDate) !== key) return;
    const endDate = starts[i + 1] ?? period.endDate;
    const last = periods.at(-1);
    if (last && last.endDate === startDate) last.endDate = endDate;
    else periods.push({ startDate, endDate });
  });
  return periods;
}
