/** One meter's energy of one kind on one calendar day of the account timezone. */
export interface DailyEnergy {
  meterId: string;
  kind: 'local' | 'grid';
  day: string;
  wh: bigint;
}

/** The balanced values a bill invoices (design.md §7), read set-based. */
export interface BillingEnergyRepository {
  /**
   * Local and grid energy the consumers among `meterIds` received on a balanced site in
   * [from, to), summed per meter, kind and local day — one statement for any number of meters.
   */
  balancedEnergy(accountId: string, siteId: string, meterIds: readonly string[], from: number, to: number, timezone: string): Promise<DailyEnergy[]>;
  /** Quarter hours of the site in [from, to) that are balanced (state 1). */
  balancedIntervals(accountId: string, siteId: string, from: number, to: number): Promise<number>;
}
