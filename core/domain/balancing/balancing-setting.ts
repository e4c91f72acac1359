import { inForceOn, type DatePeriod } from '../periods.js';
import { periodsUnderKey, type DatedAllocationKey } from '../sites/site.js';
import { SHARE_SCALE } from './allocation.js';

export const BALANCING_KINDS = ['participant'] as const;
export type BalancingKind = (typeof BALANCING_KINDS)[number];

/** A meter's participation in its site's balancing over [startDate, endDate). */
export class MeterBalancingSetting {
  id!: string;
  accountId!: string;
  siteId!: string;
  meterId!: string;
  balancing!: BalancingKind;
  startDate!: string;
  endDate!: string | null;
  /** Lower first; null forms the last tier. */
  priority!: number | null;
  /** Share of the supply under the static key, in millionths (SHARE_SCALE); null counts as 0. */
  shareMicros!: number | null;
  createdAt!: Date;
  updatedAt!: Date;
}

type Terms = Pick<MeterBalancingSetting, 'meterId' | 'balancing' | 'startDate' | 'endDate' | 'priority' | 'shareMicros'>;

/**
 * The first day of `setting`'s period on which the shares of the settings active that day (it and
 * `others`) sum above 1, with that sum. Sums only grow where a setting starts, so those days suffice.
 */
export function firstDayOverOne(setting: DatePeriod & { shareMicros: number | null }, others: readonly (DatePeriod & { shareMicros: number | null })[]): { day: string; sumMicros: number } | null {
  if (!setting.shareMicros) return null;
  const days = [setting.startDate, ...others.map((other) => other.startDate).filter((day) => inForceOn(setting, day))].sort();
  for (const day of days) {
    const sumMicros = others.filter((other) => inForceOn(other, day)).reduce((sum, other) => sum + (other.shareMicros ?? 0), setting.shareMicros);
    if (sumMicros > SHARE_SCALE) return { day, sumMicros };
  }
  return null;
}

/**
 * The periods of a site whose balancing changes when a setting of it changes from `before` (null:
 * created) to `after`: all of both periods when who takes part changes (meter, kind, dates), else
 * only where the changed value counts: a priority under the priority key, a share under the static key.
 */
export function periodsRebalanced(before: Terms | null, after: Terms, keys: readonly DatedAllocationKey[]): DatePeriod[] {
  const period = { startDate: after.startDate, endDate: after.endDate };
  if (!before) return [period];
  const participation = (terms: Terms) => [terms.meterId, terms.balancing, terms.startDate, terms.endDate].join('|');
  if (participation(before) !== participation(after)) return [{ startDate: before.startDate, endDate: before.endDate }, period];
  return [
    ...(before.priority !== after.priority ? periodsUnderKey(keys, period, 'priority') : []),
    ...(before.shareMicros !== after.shareMicros ? periodsUnderKey(keys, period, 'static') : []),
  ];
}
