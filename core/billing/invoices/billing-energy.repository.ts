/** One meter's energy of one kind on one calendar day of the account timezone. */
export interface DailyEnergy {
  meterId: string;
  kind: 'local' | 'grid';
  day: string;
  wh: bigint;
}

/** A received, unlocked prepayment an invoice deducts. */
export interface ReceivedPrepayment {
  id: string;
  contractId: string;
  amount: bigint;
}

/** What a bill reads, set-based: one statement per site or per batch of contracts. */
export interface BillingEnergyRepository {
  /**
   * Local and grid energy the consumers among `meterIds` received on a balanced site on the local
   * days [fromDay, toDay), summed per meter, kind and local day — one statement for any number of meters.
   */
  balancedEnergy(accountId: string, siteId: string, meterIds: readonly string[], fromDay: string, toDay: string, timezone: string): Promise<DailyEnergy[]>;
  /** Balanced quarter hours (state 1) of the site on the local days [fromDay, toDay), per day. */
  balancedIntervalsPerDay(accountId: string, siteId: string, fromDay: string, toDay: string, timezone: string): Promise<Map<string, number>>;
  /** The contracts' received, unlocked prepayments due before `before`, but for replacements of ones an invoice deducted (`replacementOf`). */
  receivedPrepayments(accountId: string, contractIds: readonly string[], before: string): Promise<ReceivedPrepayment[]>;
}
