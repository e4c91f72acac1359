import { randomUUID } from 'node:crypto';
import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import type { CustomerRepository } from '../customers/customers.repository.js';
import { PaymentMethod } from '../domain/payments/payment-method.js';
import { deleteUnreferenced } from '../deletion.js';
import { mergeUpdate } from '../patching.js';
import { assertReference } from '../references.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../resource.service.js';
import type { ContractRepository } from '../contracts/contracts.repository.js';
import { sitesOfCustomer } from '../contracts/customer-sites.js';
import { causedBy, type EventOutbox } from '../events/outbox.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import { createPaymentMethodCommand, listPaymentMethodsQuery, updatePaymentMethodCommand, type PaymentMethodView } from './payment-methods.commands.js';
import type { PaymentMethodRepository } from './payments.repository.js';

export interface PaymentMethodsDependencies {
  paymentMethods: PaymentMethodRepository;
  customers: CustomerRepository;
  contracts: ContractRepository;
  uow: UnitOfWork;
  clock: Clock;
  outbox: EventOutbox;
}

function present(method: PaymentMethod): PaymentMethodView {
  const { id, customerId, type, accountHolder, iban, bic, mandateReference, mandateSignedAt, isDefault } = method;
  return { id, customerId, type, accountHolder, iban, bic, mandateReference, mandateSignedAt, isDefault, ...timestampsOf(method) };
}

/**
 * Payment methods of customers. A customer's first method becomes its default unless
 * the request says otherwise; making one the default unsets the previous one.
 */
export class PaymentMethodsService implements ResourceService<PaymentMethodView> {
  constructor(private readonly deps: PaymentMethodsDependencies) {}

  async create(actor: Actor, input: unknown): Promise<PaymentMethodView> {
    const command = parseInput(createPaymentMethodCommand, input);
    return this.deps.uow.transactional(async () => {
      assertReference(await this.deps.customers.findById(actor.accountId, command.customerId), { path: 'customerId', resource: 'customer', id: command.customerId });
      const isDefault = command.isDefault ?? (await this.deps.paymentMethods.countForCustomer(actor.accountId, command.customerId)) === 0;
      const now = this.deps.clock.now();
      const method = Object.assign(new PaymentMethod(), { id: randomUUID(), accountId: actor.accountId, ...command, isDefault, createdAt: now, updatedAt: now });
      const undefaulted = isDefault ? await this.deps.paymentMethods.clearDefault(actor.accountId, method.customerId, method.id, now) : [];
      this.deps.paymentMethods.add(method);
      return this.recorded(actor, 'payment_method.created', method, undefaulted);
    });
  }

  async get(actor: Actor, id: string): Promise<PaymentMethodView> {
    return present(await loadOwned(this.deps.paymentMethods, actor, 'payment_method', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<PaymentMethodView>> {
    return listPage(this.deps.paymentMethods, actor, listPaymentMethodsQuery, query, (items) => items.map(present));
  }

  async listByCustomers(actor: Actor, customerIds: readonly string[]): Promise<PaymentMethodView[]> {
    return (await this.deps.paymentMethods.readByCustomerIds(actor.accountId, customerIds)).map(present);
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<PaymentMethodView> {
    return this.deps.uow.transactional(async () => {
      const method = await loadOwned(this.deps.paymentMethods, actor, 'payment_method', id);
      const { merged } = mergeUpdate({
        current: present(method),
        patch,
        patchSchema: updatePaymentMethodCommand,
        createSchema: createPaymentMethodCommand,
        readOnly: ['customerId'],
      });
      const now = this.deps.clock.now();
      const undefaulted = merged.isDefault && !method.isDefault ? await this.deps.paymentMethods.clearDefault(actor.accountId, method.customerId, method.id, now) : [];
      Object.assign(method, { ...merged, updatedAt: now });
      return this.recorded(actor, 'payment_method.updated', method, undefaulted);
    });
  }

  /** For internal tools (GraphQL): a payment method no payment names. */
  async delete(actor: Actor, id: string): Promise<PaymentMethodView> {
    return this.deps.uow.transactional(async () => {
      const method = await loadOwned(this.deps.paymentMethods, actor, 'payment_method', id);
      await deleteUnreferenced(this.deps.paymentMethods, actor, 'payment_method', method);
      return this.recorded(actor, 'payment_method.deleted', method);
    });
  }

  /** The change's event, and `payment_method.updated` for each method it made a non-default one. */
  private async recorded(actor: Actor, type: `payment_method.${'created' | 'updated' | 'deleted'}`, method: PaymentMethod, undefaulted: readonly PaymentMethod[] = []): Promise<PaymentMethodView> {
    const siteIds = await sitesOfCustomer(this.deps.contracts, actor.accountId, method.customerId);
    const view = present(method);
    const changed = [{ type, view }, ...undefaulted.map((other) => ({ type: 'payment_method.updated' as const, view: present(other) }))];
    await this.deps.outbox.record(changed.map((change) => ({ ...causedBy(actor), type: change.type, entityId: change.view.id, data: change.view, siteIds })));
    return view;
  }
}
