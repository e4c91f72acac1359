import type { BillRun, BillRunError, BillRunState } from '../../domain/billing/bill-run.js';
import type { Contract } from '../../domain/contracts/contract.js';
import type { ResourceRepository } from '../../resource.repository.js';

export interface BillRunCounts {
  /** Contracts the run bills: those it has handled and, while creating, those still to come. */
  total: number;
  /** Contracts the run has handled so far: an invoice or an error each. */
  contracts: number;
  invoices: number;
  issued: number;
  errors: number;
}

export interface BillRunRepository extends ResourceRepository<BillRun, { state?: BillRunState }> {
  remove(run: BillRun): void;
  /**
   * The next contracts the run has not handled yet (no invoice of the run, no error on it): those
   * with a contract meter in the period, on the run's sites, site by site (a batch reads few sites).
   * For reading only: the contracts are not tracked, so changing one writes nothing.
   */
  unhandledContracts(run: BillRun, limit: number): Promise<Contract[]>;
  /** Without `total`: the caller adds the contracts still to come. */
  counts(accountId: string, runIds: readonly string[]): Promise<Map<string, Omit<BillRunCounts, 'total'>>>;
  /** Contracts the run bills now: in force in the period, on its sites, with a contract meter in it. */
  countBillable(run: BillRun): Promise<number>;
  /** Which of these contracts the run bills now (`countBillable`'s rule). */
  billableAmong(run: BillRun, contractIds: readonly string[]): Promise<Set<string>>;
  errorsOf(accountId: string, runIds: readonly string[]): Promise<BillRunError[]>;
  /** Inserts errors; a contract that already has one on the run keeps it. */
  addErrors(errors: readonly BillRunError[]): Promise<void>;
  /** The run as stored now, its row locked until the transaction ends (state changes are checked on it). */
  lockById(accountId: string, id: string): Promise<BillRun | null>;
  /** Runs in `creating` or `completing`: what a worker (re)starts. */
  unfinished(): Promise<Pick<BillRun, 'id' | 'accountId'>[]>;
  /** Serialises creating runs in the account until the transaction ends. */
  lockCreation(accountId: string): Promise<void>;
  /** The account's runs in any state but `completed`, as stored now, oldest first. */
  notCompleted(accountId: string): Promise<BillRun[]>;
}
