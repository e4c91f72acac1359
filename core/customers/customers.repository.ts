import type { Customer } from '../domain/customers/customer.js';
import type { DeletableRepository, ResourceRepository } from '../resource.repository.js';

export interface CustomerRepository extends ResourceRepository<Customer>, DeletableRepository<Customer> {
  /** Another customer of the account with this number. */
  isNumberTaken(accountId: string, number: string, exceptId?: string): Promise<boolean>;
}
