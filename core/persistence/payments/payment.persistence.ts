import { defineEntity, LockMode, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Payment } from '../../domain/payments/payment.js';
import { PaymentMethod } from '../../domain/payments/payment-method.js';
import { PrepaymentAmount, PrepaymentRequest } from '../../domain/payments/prepayment.js';
import type { Page, PageQuery } from '../../pagination.js';
import type {
  EnsurePrepayments,
  PaymentFilter,
  PaymentMethodRepository,
  PaymentRepository,
  PrepaymentAmountRepository,
  PrepaymentKey,
  PrepaymentRequestRepository,
  UpcomingPrepayment,
  UpcomingPrepaymentsKey,
} from '../../payments/payments.repository.js';
import { boundQuery } from '../bound-query.js';
import { plainRows } from '../plain-rows.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { ContractEntity } from '../contracts/contract.persistence.js';
import { CustomerEntity } from '../customers/customer.persistence.js';
import { InvoiceEntity } from '../billing/invoice.persistence.js';
import { accountKey, tenantForeignKey } from '../tenant-keys.js';

export const PaymentMethodEntity = defineEntity({
  class: PaymentMethod,
  tableName: 'payment_methods',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }, { properties: ['accountId', 'customerId'] }],
  // One default per customer, checked at commit so that moving the default may write either row first.
  checks: [{ name: 'payment_methods_one_default_per_customer', expression: 'EXCLUDE USING gist (account_id WITH =, customer_id WITH =) WHERE (is_default) DEFERRABLE INITIALLY DEFERRED' }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    customerId: p.uuid().fieldName('customer_id'),
    customer: tenantForeignKey(() => CustomerEntity, 'customer_id'),
    type: p.string().length(32),
    accountHolder: p.string().length(200).nullable(),
    iban: p.string().length(34).nullable(),
    bic: p.string().length(11).nullable(),
    mandateReference: p.string().length(35).nullable(),
    mandateSignedAt: p.string().columnType('date').nullable(),
    isDefault: p.boolean(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export const PaymentEntity = defineEntity({
  class: Payment,
  tableName: 'payments',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }, { properties: ['accountId', 'contractId', 'dueDate'] }],
  // One prepayment per due date; a failed one stays beside the prepayment that replaces it (holdsPrepaymentDueDate).
  uniques: [{ name: 'payments_one_prepayment_per_due_date', properties: ['accountId', 'contractId', 'dueDate'], where: "type = 'prepayment' and state <> 'failed'" }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    contractId: p.uuid().fieldName('contract_id'),
    contract: tenantForeignKey(() => ContractEntity, 'contract_id'),
    amount: p.bigint(),
    type: p.string().length(16),
    state: p.string().length(16),
    dueDate: p.string().columnType('date'),
    receivedAt: p.datetime(3).nullable(),
    paymentMethodId: p.uuid().fieldName('payment_method_id').nullable(),
    paymentMethod: tenantForeignKey(() => PaymentMethodEntity, 'payment_method_id'),
    reference: p.string().length(200).nullable(),
    invoiceId: p.uuid().fieldName('invoice_id').nullable(),
    invoice: tenantForeignKey(() => InvoiceEntity, 'invoice_id'),
    lockedAt: p.datetime(3).nullable(),
    replacesPaymentId: p.uuid().fieldName('replaces_payment_id').nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export const PrepaymentAmountEntity = defineEntity({
  class: PrepaymentAmount,
  tableName: 'prepayment_amounts',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }],
  uniques: [{ properties: ['accountId', 'contractId', 'validFrom'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    contractId: p.uuid().fieldName('contract_id'),
    contract: tenantForeignKey(() => ContractEntity, 'contract_id'),
    amount: p.bigint(),
    validFrom: p.string().columnType('date'),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export const PrepaymentRequestEntity = defineEntity({
  class: PrepaymentRequest,
  tableName: 'prepayment_requests',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }, { properties: ['accountId', 'contractId'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    contractId: p.uuid().fieldName('contract_id'),
    contract: tenantForeignKey(() => ContractEntity, 'contract_id'),
    startDate: p.string().columnType('date'),
    endDate: p.string().columnType('date'),
    paymentIds: p.json<string[]>(),
    createdAt: p.datetime(3),
  },
});

export class MikroPaymentMethodRepository extends AccountScopedRepository<PaymentMethod, { customerId?: string }> implements PaymentMethodRepository {
  constructor(em: EntityManager) {
    super(em, PaymentMethodEntity);
  }

  referencesTo(accountId: string, id: string): Promise<string[]> {
    return this.countReferences(accountId, id, { payments: 'payments.payment_method_id', 'payment run items': 'payment_run_items.payment_method_id' });
  }

  countForCustomer(accountId: string, customerId: string): Promise<number> {
    return this.em.count(PaymentMethodEntity, { accountId, customerId });
  }

  async clearDefault(accountId: string, customerId: string, exceptId: string, now: Date): Promise<PaymentMethod[]> {
    const current = await this.em.find(PaymentMethodEntity, { accountId, customerId, isDefault: true, id: { $ne: exceptId } });
    for (const method of current) Object.assign(method, { isDefault: false, updatedAt: now });
    return current;
  }

  readByCustomerIds(accountId: string, customerIds: readonly string[]): Promise<PaymentMethod[]> {
    if (customerIds.length === 0) return Promise.resolve([]);
    return plainRows(this.em, PaymentMethodEntity, 'account_id = ? and customer_id = any(?::uuid[]) order by created_at, id', [accountId, customerIds]);
  }

  defaultOf(accountId: string, customerId: string): Promise<PaymentMethod | null> {
    return this.em.findOne(PaymentMethodEntity, { accountId, customerId, isDefault: true });
  }
}

export class MikroPaymentRepository extends AccountScopedRepository<Payment, PaymentFilter> implements PaymentRepository {
  constructor(em: EntityManager) {
    super(em, PaymentEntity);
  }

  override list(accountId: string, filter: PaymentFilter, page: PageQuery): Promise<Page<Payment>> {
    const { dueDateFrom, dueDateTo, ...exact } = filter;
    const dueDate = { ...(dueDateFrom ? { $gte: dueDateFrom } : {}), ...(dueDateTo ? { $lt: dueDateTo } : {}) };
    return super.list(accountId, { ...exact, ...(Object.keys(dueDate).length > 0 ? { dueDate } : {}) } as PaymentFilter, page);
  }

  findByInvoiceIds(accountId: string, invoiceIds: readonly string[]): Promise<Payment[]> {
    if (invoiceIds.length === 0) return Promise.resolve([]);
    return this.em.find(PaymentEntity, { accountId, invoiceId: { $in: [...invoiceIds] } });
  }

  findByContractIds(accountId: string, contractIds: readonly string[]): Promise<Payment[]> {
    return this.em.find(PaymentEntity, { accountId, contractId: { $in: [...contractIds] } }, { orderBy: { dueDate: 'asc', createdAt: 'asc', id: 'asc' } });
  }

  addAll(payments: readonly Payment[]): void {
    for (const payment of payments) this.em.persist(payment);
  }

  async addAfterStaged(payments: readonly Payment[]): Promise<void> {
    await this.em.flush();
    this.addAll(payments);
  }

  lockByIds(accountId: string, ids: readonly string[]): Promise<Payment[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.em.find(PaymentEntity, { accountId, id: { $in: [...new Set(ids)] } }, { orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  async findByLockedInvoices(accountId: string, invoiceIds: readonly string[]): Promise<Payment[]> {
    if (invoiceIds.length === 0) return [];
    const ids = [...new Set(invoiceIds)].sort();
    await this.em.flush();
    await boundQuery(this.em, 'select 1 from invoices where account_id = ? and id = any(?::uuid[]) order by id for no key update', [accountId, ids]);
    return this.em.find(PaymentEntity, { accountId, invoiceId: { $in: ids } }, { refresh: true });
  }

  async prepaymentsDue(accountId: string, keys: readonly PrepaymentKey[], exceptId?: string): Promise<PrepaymentKey[]> {
    if (keys.length === 0) return [];
    const rows = await this.em.execute<{ contract_id: string; due_date: string }[]>(
      `select p.contract_id, to_char(p.due_date, 'YYYY-MM-DD') as due_date
         from payments p join json_to_recordset(?::json) as k(contract_id uuid, due_date date)
           on p.contract_id = k.contract_id and p.due_date = k.due_date
        where p.account_id = ? and p.type = 'prepayment' and p.state <> 'failed' and p.id is distinct from ?::uuid`,
      [JSON.stringify(keys.map((k) => ({ contract_id: k.contractId, due_date: k.dueDate }))), accountId, exceptId ?? null],
    );
    return rows.map((row) => ({ contractId: row.contract_id, dueDate: row.due_date }));
  }

  async upcomingPrepayments(accountId: string, keys: readonly UpcomingPrepaymentsKey[], limit: number): Promise<UpcomingPrepayment[]> {
    if (keys.length === 0) return [];
    const unique = [...new Map(keys.map((k) => [`${k.contractId}/${k.after}`, k])).values()];
    const rows = await this.em.execute<{ contract_id: string; after: string; due_date: string; amount: string }[]>(
      `select u.contract_id, u.after, u.due_date, u.amount from (
         select p.contract_id, to_char(k.after, 'YYYY-MM-DD') as after, to_char(p.due_date, 'YYYY-MM-DD') as due_date, p.amount,
                row_number() over (partition by p.contract_id, k.after order by p.due_date, p.created_at, p.id) as n
           from payments p join json_to_recordset(?::json) as k(contract_id uuid, after date) on p.contract_id = k.contract_id and p.due_date > k.after
          where p.account_id = ? and p.type = 'prepayment' and p.state in ('pending', 'submitted')
       ) u
       where u.n <= ?
       order by u.contract_id, u.after, u.due_date`,
      [JSON.stringify(unique.map((k) => ({ contract_id: k.contractId, after: k.after }))), accountId, limit],
    );
    return rows.map((row) => ({ contractId: row.contract_id, after: row.after, dueDate: row.due_date, amount: BigInt(row.amount) }));
  }

  async ensurePrepayments(request: EnsurePrepayments): Promise<{ paymentIds: string[]; createdIds: string[] }> {
    const { accountId, contractId, paymentMethodId, wanted, dueDates, now } = request;
    let created: { id: string }[] = [];
    if (wanted.length > 0) {
      created = await this.em.execute<{ id: string }[]>(
        `insert into payments (id, account_id, contract_id, amount, type, state, due_date, payment_method_id, created_at, updated_at)
         select w.id, ?, ?, w.amount, 'prepayment', 'pending', w.due_date, ?, ?, ?
           from json_to_recordset(?::json) as w(id uuid, due_date date, amount bigint)
         on conflict (account_id, contract_id, due_date) where type = 'prepayment' and state <> 'failed' do nothing
         returning id`,
        [accountId, contractId, paymentMethodId, now, now, JSON.stringify(wanted.map((w) => ({ id: w.id, due_date: w.dueDate, amount: w.amount.toString() })))],
      );
    }
    const rows = await this.em.execute<{ id: string }[]>(
      `select id from payments
        where account_id = ? and contract_id = ? and type = 'prepayment' and state <> 'failed'
          and due_date in (select value::date from json_array_elements_text(?::json))
        order by due_date`,
      [accountId, contractId, JSON.stringify(dueDates)],
    );
    return { paymentIds: rows.map((row) => row.id), createdIds: created.map((row) => row.id) };
  }
}

export class MikroPrepaymentAmountRepository extends AccountScopedRepository<PrepaymentAmount, { contractId?: string }> implements PrepaymentAmountRepository {
  constructor(em: EntityManager) {
    super(em, PrepaymentAmountEntity);
  }

  ofContract(accountId: string, contractId: string): Promise<PrepaymentAmount[]> {
    return this.em.find(PrepaymentAmountEntity, { accountId, contractId }, { orderBy: { validFrom: 'asc' } });
  }
}

export class MikroPrepaymentRequestRepository extends AccountScopedRepository<PrepaymentRequest, { contractId?: string }> implements PrepaymentRequestRepository {
  constructor(em: EntityManager) {
    super(em, PrepaymentRequestEntity);
  }
}
