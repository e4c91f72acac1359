import type { ContractRepository } from './contracts.repository.js';

/** The sites a customer belongs to: those of its contracts (events' `siteIds`). */
export async function sitesOfCustomer(contracts: ContractRepository, accountId: string, customerId: string): Promise<string[]> {
  return [...new Set((await contracts.findByCustomerIds(accountId, [customerId])).map((contract) => contract.siteId))];
}
