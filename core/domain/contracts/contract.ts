export class Contract {
  id!: string;
  accountId!: string;
  customerId!: string;
  electricityProductId!: string;
  siteId!: string;
  dunningBlock!: boolean;
  /** Calendar dates in the account timezone; the period is [startDate, endDate). */
  startDate!: string;
  endDate!: string | null;
  /** Exclusive like every end: the minimum term is [startDate, minimumTermEndDate). */
  minimumTermEndDate!: string | null;
  /** Term durations (see term-duration.ts), e.g. P1M; nextCancellation (cancellation.ts) applies them. */
  noticePeriod!: string | null;
  /** Business customers only: the length of each renewal after the minimum term, e.g. P1Y. */
  renewalPeriod!: string | null;
  number!: string;
  customAttributes!: Record<string, unknown>;
  createdAt!: Date;
  updatedAt!: Date;
}

/** A meter assigned to a contract over [startDate, endDate). */
export class ContractMeter {
  id!: string;
  accountId!: string;
  contractId!: string;
  siteId!: string;
  meterId!: string;
  startDate!: string;
  endDate!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
}
