/** Storage layout of results, as compact as measurements: one row per site, UTC day and flow. */
export class BalanceDay {
  accountId!: string;
  siteId!: string;
  day!: string;
  kind!: string;
  /** The nil UUID stands for "none" (no grid meter), so the key has no nulls. */
  debitorId!: string;
  creditorId!: string;
  values!: (number | null)[];
  /** Wh of the slots before and from local midnight (`localDaySplit`): bills read days without unnesting. */
  headWh!: string | null;
  tailWh!: string | null;
}

/** Per site and UTC day: 1 balanced, 0 incomplete (participant data missing), null nothing to balance. */
export class BalancingDay {
  accountId!: string;
  siteId!: string;
  day!: string;
  states!: (number | null)[];
  /** Balanced quarter hours before and from local midnight. */
  headBalanced!: number;
  tailBalanced!: number;
  balancedAt!: Date;
}

/** A changed range of a site waiting for the worker (written with the change, drained by the job). */
export class BalancingDirtyRange {
  id!: string;
  accountId!: string;
  siteId!: string;
  fromAt!: Date;
  toAt!: Date;
  /** Inside the period of this issued invoice: kept, not balanced, until the invoice is cancelled. */
  heldByInvoiceId!: string | null;
}

export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
