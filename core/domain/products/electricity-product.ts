export const PREPAYMENT_CYCLES = ['monthly', 'quarterly', 'yearly'] as const;
export type PrepaymentCycle = (typeof PREPAYMENT_CYCLES)[number];

export interface PrepaymentConfiguration {
  cycle: PrepaymentCycle;
  /** 1..28, so every month has the day. */
  dayOfMonth: number;
}

export class ElectricityProduct {
  id!: string;
  accountId!: string;
  name!: string;
  description!: string | null;
  prepaymentConfiguration!: PrepaymentConfiguration | null;
  createdAt!: Date;
  updatedAt!: Date;
}
