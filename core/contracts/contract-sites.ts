import type { ContractRepository } from './contracts.repository.js';

/**
 * The site of each of the contracts (the sites an event about their payments or invoices names),
 * read as copies outside the unit of work: a batch's commit then need not compare hundreds of
 * contracts it never changes.
 */
export async function sitesOfContracts(contracts: ContractRepository, accountId: string, contractIds: Iterable<string>): Promise<Map<string, string>> {
  return new Map((await contracts.readByIds(accountId, [...new Set(contractIds)])).map((contract) => [contract.id, contract.siteId]));
}
