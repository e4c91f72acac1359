import { randomUUID } from 'node:crypto';
import type { Actor } from '../auth/actor.js';
import type { AccountCache } from '../caching/account-cache.js';
import type { Clock } from '../clock.js';
import type { CustomAttributesService, PresentValues } from '../custom-attributes/custom-attributes.service.js';
import { presentAddress } from '../domain/addresses/address.js';
import { Customer } from '../domain/customers/customer.js';
import { ConflictError } from '../errors.js';
import { deleteUnreferenced } from '../deletion.js';
import { mergeUpdate } from '../patching.js';
import { listPage, loadOwned, timestampsOf, viewsById, type ListResult, type ResourceService } from '../resource.service.js';
import type { ContractRepository } from '../contracts/contracts.repository.js';
import { sitesOfCustomer } from '../contracts/customer-sites.js';
import { causedBy, type EventOutbox } from '../events/outbox.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import type { CustomerRepository } from './customers.repository.js';
import {
  createCustomerCommand,
  listCustomersQuery,
  removedCustomerFields,
  updateCustomerCommand,
  type CustomerView,
} from './customers.commands.js';

function present(customer: Customer, values: PresentValues): CustomerView {
  const { id, companyName, invoiceEmail, email, number, salutation, title, firstName, lastName, phone1, phone2, vatId, buyerReference, invoiceFormat } = customer;
  return {
    id,
    companyName,
    address: customer.address && presentAddress(customer.address),
    deliveryAddress: customer.deliveryAddress && presentAddress(customer.deliveryAddress),
    invoiceEmail,
    email,
    number,
    salutation,
    title,
    firstName,
    lastName,
    phone1,
    phone2,
    vatId,
    buyerReference,
    invoiceFormat,
    customAttributes: values(customer.customAttributes),
    ...timestampsOf(customer),
  };
}

export class CustomersService implements ResourceService<CustomerView> {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly attributes: CustomAttributesService,
    private readonly contracts: ContractRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly outbox: EventOutbox,
    /** Customers read by id, forgotten when a customer or a custom attribute of the account changes. */
    private readonly views: AccountCache<CustomerView>,
  ) {}

  async create(actor: Actor, input: unknown): Promise<CustomerView> {
    const command = parseInput(createCustomerCommand, input, { removed: removedCustomerFields });
    return this.uow.transactional(async () => {
      await this.assertNumberFree(actor, command.number);
      const customAttributes = await this.attributes.checkValues(actor.accountId, 'customer', command.customAttributes);
      const now = this.clock.now();
      const customer = Object.assign(new Customer(), { id: randomUUID(), accountId: actor.accountId, ...command, customAttributes, createdAt: now, updatedAt: now });
      this.customers.add(customer);
      const view = present(customer, await this.attributes.presenter(actor.accountId, 'customer'));
      await this.outbox.record([{ ...causedBy(actor), type: 'customer.created', entityId: view.id, data: view, siteIds: [] }]);
      return view;
    });
  }

  get(actor: Actor, id: string): Promise<CustomerView> {
    return this.views.get(actor.accountId, id, async () => (await this.presentAll(actor, [await loadOwned(this.customers, actor, 'customer', id)]))[0]!);
  }

  async getMany(actor: Actor, ids: readonly string[]): Promise<CustomerView[]> {
    return viewsById(this.views, actor.accountId, ids, async (missing) => this.presentAll(actor, await this.customers.findByIds(actor.accountId, missing)));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<CustomerView>> {
    return listPage(this.customers, actor, listCustomersQuery, query, (items) => this.presentAll(actor, items));
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<CustomerView> {
    return this.uow.transactional(async () => {
      const customer = await loadOwned(this.customers, actor, 'customer', id);
      const values = await this.attributes.presenter(actor.accountId, 'customer');
      const { merged } = mergeUpdate({
        current: present(customer, values),
        patch,
        patchSchema: updateCustomerCommand,
        createSchema: createCustomerCommand,
        removed: removedCustomerFields,
      });
      if (merged.number !== customer.number) await this.assertNumberFree(actor, merged.number, customer.id);
      const customAttributes = await this.attributes.checkValues(actor.accountId, 'customer', merged.customAttributes);
      Object.assign(customer, { ...merged, customAttributes, updatedAt: this.clock.now() });
      const view = present(customer, values);
      await this.outbox.record([{ ...causedBy(actor), type: 'customer.updated', entityId: view.id, data: view, siteIds: await sitesOfCustomer(this.contracts, actor.accountId, customer.id) }]);
      return view;
    });
  }

  /** For internal tools (GraphQL): a customer without contracts and payment methods. */
  async delete(actor: Actor, id: string): Promise<CustomerView> {
    return this.uow.transactional(async () => {
      const customer = await loadOwned(this.customers, actor, 'customer', id);
      const view = present(customer, await this.attributes.presenter(actor.accountId, 'customer'));
      await deleteUnreferenced(this.customers, actor, 'customer', customer);
      await this.outbox.record([{ ...causedBy(actor), type: 'customer.deleted', entityId: customer.id, data: view, siteIds: [] }]);
      return view;
    });
  }

  private async assertNumberFree(actor: Actor, number: string | null, exceptId?: string): Promise<void> {
    if (number && (await this.customers.isNumberTaken(actor.accountId, number, exceptId))) {
      throw new ConflictError('customer_number_taken', `Customer number ${number} is taken in this account.`);
    }
  }

  private async presentAll(actor: Actor, customers: Customer[]): Promise<CustomerView[]> {
    const values = await this.attributes.presenter(actor.accountId, 'customer');
    return customers.map((customer) => present(customer, values));
  }
}
