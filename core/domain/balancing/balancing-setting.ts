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
  createdAt!: Date;
  updatedAt!: Date;
}
