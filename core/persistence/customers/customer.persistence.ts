import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CustomerRepository } from '../../customers/customers.repository.js';
import type { Address } from '../../domain/addresses/address.js';
import { Customer, DEFAULT_INVOICE_FORMAT } from '../../domain/customers/customer.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { changeTrigger } from '../change-triggers.js';
import { accountKey } from '../tenant-keys.js';

export const CustomerEntity = defineEntity({
  class: Customer,
  tableName: 'customers',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }],
  uniques: [{ properties: ['accountId', 'number'] }],
  triggers: [changeTrigger('customers', 'customers', ['update', 'delete'])],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    companyName: p.string().length(200).nullable(),
    address: p.json<Address>().nullable(),
    deliveryAddress: p.json<Address>().nullable(),
    invoiceEmail: p.string().length(320).nullable(),
    email: p.string().length(320).nullable(),
    number: p.string().length(100).nullable(),
    salutation: p.string().length(200).nullable(),
    title: p.string().length(200).nullable(),
    firstName: p.string().length(200).nullable(),
    lastName: p.string().length(200).nullable(),
    phone1: p.string().length(200).nullable(),
    phone2: p.string().length(200).nullable(),
    vatId: p.string().length(20).nullable(),
    buyerReference: p.string().length(200).nullable(),
    invoiceFormat: p.string().length(16).default(DEFAULT_INVOICE_FORMAT),
    customAttributes: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class MikroCustomerRepository extends AccountScopedRepository<Customer> implements CustomerRepository {
  constructor(em: EntityManager) {
    super(em, CustomerEntity);
  }

  referencesTo(accountId: string, id: string): Promise<string[]> {
    return this.countReferences(accountId, id, { contracts: 'contracts.customer_id', 'payment methods': 'payment_methods.customer_id', invoices: 'invoices.customer_id' });
  }

  async isNumberTaken(accountId: string, number: string, exceptId?: string): Promise<boolean> {
    return (await this.em.count(CustomerEntity, { accountId, number, ...(exceptId ? { id: { $ne: exceptId } } : {}) })) > 0;
  }
}
