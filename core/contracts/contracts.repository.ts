import type { Contract, ContractMeter } from '../domain/contracts/contract.js';
import type { DeletableRepository, ResourceRepository } from '../resource.repository.js';

export interface ContractRepository extends ResourceRepository<Contract, { siteId?: string; customerId?: string; electricityProductId?: string }>, DeletableRepository<Contract> {
  isNumberTaken(accountId: string, number: string, exceptId?: string): Promise<boolean>;
  findByCustomerIds(accountId: string, customerIds: readonly string[]): Promise<Contract[]>;
  findBySiteIds(accountId: string, siteIds: readonly string[]): Promise<Contract[]>;
}

export interface ContractMeterRepository extends ResourceRepository<ContractMeter, { contractId?: string; meterId?: string; siteId?: string }> {
  assignmentsOfMeter(accountId: string, meterId: string): Promise<ContractMeter[]>;
  countForContract(accountId: string, contractId: string): Promise<number>;
  /** For reading only: the assignments are not tracked, so changing one writes nothing. */
  findByContractIds(accountId: string, contractIds: readonly string[]): Promise<ContractMeter[]>;
  /** Assignments of these meters in force on a date. */
  activeOnDate(accountId: string, meterIds: readonly string[], date: string): Promise<ContractMeter[]>;
}
