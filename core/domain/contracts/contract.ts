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
