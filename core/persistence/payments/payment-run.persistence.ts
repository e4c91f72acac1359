import { defineEntity, LockMode, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Address } from '../../domain/addresses/address.js';
import type { InvoiceKind } from '../../domain/billing/invoice.js';
import type { TemplateLocale } from '../../domain/billing/template.js';
import type { MandateUse, SequenceType } from '../../domain/payments/mandate-sequence.js';
import { PaymentRun, PaymentRunItem, type PaymentRunState, type PaymentRunType, type RunSeller, type SkippedCustomer } from '../../domain/payments/payment-run.js';
import type { PaymentState, PaymentType } from '../../domain/payments/payment.js';
import type { Page, PageQuery } from '../../pagination.js';
import type { CollectableRow, CollectablesQuery, PaymentRunRepository, RunCounts, RunItemRow } from '../../payments/payment-runs.repository.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { boundQuery } from '../bound-query.js';
import { ContractEntity } from '../contracts/contract.persistence.js';
import { CustomerEntity } from '../customers/customer.persistence.js';
import { accountKey, tenantForeignKey } from '../tenant-keys.js';
import { PaymentEntity, PaymentMethodEntity } from './payment.persistence.js';

export const PaymentRunEntity = defineEntity({
  class: PaymentRun,
  tableName: 'payment_runs',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    type: p.string().length(16),
    state: p.string().length(16),
    collectionDate: p.string().columnType('date'),
    dueUntil: p.string().columnType('date'),
    siteIds: p.json<string[]>().nullable(),
    seller: p.json<RunSeller>(),
    paymentsCount: p.integer(),
    controlSum: p.bigint(),
    skipped: p.json<SkippedCustomer[]>(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    closedAt: p.datetime(3).nullable(),
    cancelledAt: p.datetime(3).nullable(),
  },
});

export const PaymentRunItemEntity = defineEntity({
  class: PaymentRunItem,
  tableName: 'payment_run_items',
  indexes: [{ properties: ['accountId', 'paymentMethodId'] }],
  // A payment is in at most one open run, whatever the code above does.
  uniques: [{ name: 'payment_run_items_one_open_run_per_payment', properties: ['accountId', 'paymentId'], where: 'open' }],
  properties: {
    accountId: accountKey,
    paymentRunId: p.uuid().fieldName('payment_run_id').primary(),
    paymentRun: tenantForeignKey(() => PaymentRunEntity, 'payment_run_id'),
    paymentId: p.uuid().fieldName('payment_id').primary(),
    payment: tenantForeignKey(() => PaymentEntity, 'payment_id'),
    open: p.boolean(),
    position: p.integer(),
    customerId: p.uuid().fieldName('customer_id'),
    customer: tenantForeignKey(() => CustomerEntity, 'customer_id'),
    contractId: p.uuid().fieldName('contract_id'),
    contract: tenantForeignKey(() => ContractEntity, 'contract_id'),
    paymentType: p.string().length(16),
    amount: p.bigint(),
    paymentMethodId: p.uuid().fieldName('payment_method_id'),
    paymentMethod: tenantForeignKey(() => PaymentMethodEntity, 'payment_method_id'),
    sequenceType: p.string().length(4).nullable(),
    mandateReference: p.string().length(35).nullable(),
    mandateSignedAt: p.string().columnType('date').nullable(),
    name: p.string().length(200),
    iban: p.string().length(34),
    bic: p.string().length(11).nullable(),
    address: p.json<Address>().nullable(),
    remittance: p.string().length(200),
    endToEndId: p.string().length(35),
    createdAt: p.datetime(3),
  },
});

const sitesFilter = `(?::json is null or c.site_id in (select value::uuid from json_array_elements_text(?::json)))`;

interface CollectableSqlRow {
  payment_id: string | null;
  payment_type: PaymentType;
  contract_id: string;
  customer_id: string;
  site_id: string;
  contract_number: string;
  invoice_id: string | null;
  invoice_number: string | null;
  amount: string;
  payment_method_id: string | null;
  due_date: string;
  reference: string | null;
  invoice_kind: InvoiceKind | null;
  invoice_locale: TemplateLocale | null;
}

interface ItemSqlRow {
  payment_run_id: string;
  payment_id: string;
  open: boolean;
  position: number;
  customer_id: string;
  contract_id: string;
  payment_type: PaymentType;
  amount: string;
  payment_method_id: string;
  sequence_type: SequenceType | null;
  mandate_reference: string | null;
  mandate_signed_at: string | null;
  name: string;
  iban: string;
  bic: string | null;
  address: Address | null;
  remittance: string;
  end_to_end_id: string;
  created_at: Date;
  state: PaymentState;
  invoice_id: string | null;
}

const ITEM_INSERT_COLUMNS = `account_id, payment_run_id, payment_id, open, position, customer_id, contract_id, payment_type, amount, payment_method_id,
  sequence_type, mandate_reference, mandate_signed_at, name, iban, bic, address, remittance, end_to_end_id, created_at`;

/** Dates come back as `YYYY-MM-DD` text: the columns are read with `::text`. */
const ITEM_COLUMNS = `i.payment_run_id, i.payment_id, i.open, i.position, i.customer_id, i.contract_id, i.payment_type, i.amount, i.payment_method_id,
  i.sequence_type, i.mandate_reference, i.mandate_signed_at::text, i.name, i.iban, i.bic, i.address, i.remittance, i.end_to_end_id, i.created_at,
  p.state, p.invoice_id`;

/** A run's items, each beside its payment as it is now. */
const ITEMS_WITH_PAYMENTS = 'payment_run_items i join payments p on p.account_id = i.account_id and p.id = i.payment_id';

export class MikroPaymentRunRepository extends AccountScopedRepository<PaymentRun, { state?: PaymentRunState; type?: PaymentRunType }> implements PaymentRunRepository {
  constructor(em: EntityManager) {
    super(em, PaymentRunEntity);
  }

  async lockCreation(accountId: string): Promise<void> {
    await this.em.execute('select pg_advisory_xact_lock(hashtextextended(?, 3))', [accountId]);
  }

  lockById(accountId: string, id: string): Promise<PaymentRun | null> {
    return this.em.findOne(PaymentRunEntity, { accountId, id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  async collectables({ accountId, type, dueUntil, siteIds }: CollectablesQuery): Promise<CollectableRow[]> {
    const sites = siteIds && JSON.stringify(siteIds);
    const pending = `select p.id as payment_id, p.type as payment_type, p.contract_id, c.customer_id, c.site_id, c.number as contract_number,
        p.invoice_id, i.number as invoice_number, p.amount, p.payment_method_id, p.due_date::text as due_date, p.reference, i.kind as invoice_kind, t.locale as invoice_locale
      from payments p
      join contracts c on c.account_id = p.account_id and c.id = p.contract_id
      left join invoices i on i.account_id = p.account_id and i.id = p.invoice_id
      left join templates t on t.account_id = i.account_id and t.id = i.template_id
      where p.account_id = ? and p.state = 'pending' and p.due_date <= ? and ${sitesFilter}`;
    const order = ` order by customer_id, due_date, payment_id nulls last, invoice_id`;
    if (type === 'credit_transfer') {
      return this.rows(await this.em.execute<CollectableSqlRow[]>(`${pending} and p.type = 'refund' ${order}`, [accountId, dueUntil, sites, sites]));
    }
    const rows = await this.em.execute<CollectableSqlRow[]>(
      `${pending} and (p.type = 'prepayment' or (p.type = 'payment' and i.state = 'issued'))
      union all
      select null, 'payment', i.contract_id, c.customer_id, c.site_id, c.number, i.id, i.number, open_amount.amount, null, i.due_date::text, null, i.kind, t.locale
      from invoices i
      join contracts c on c.account_id = i.account_id and c.id = i.contract_id
      join templates t on t.account_id = i.account_id and t.id = i.template_id
      left join lateral (
        select sum(q.amount) as amount from payments q
        where q.account_id = i.account_id and q.invoice_id = i.id and q.type = 'payment' and q.state in ('pending', 'submitted', 'received')
      ) taken on true
      -- The credit note of a credit: what of it had reached the customer when it was issued, which its
      -- PDF announces as a debit (toRecover in the invoice domain, of refunds received by then).
      left join lateral (
        select coalesce(sum(q.amount) filter (where q.type = 'refund' and q.received_at <= i.issued_at), 0)
          - coalesce(sum(q.amount) filter (where q.type = 'payment'), 0) as amount
        from payments q
        where i.cancels_invoice_id is not null and q.account_id = i.account_id and q.invoice_id = i.cancels_invoice_id and q.state = 'received'
      ) paid_out on true
      cross join lateral (
        select case when i.cancels_invoice_id is null then i.amount_due else greatest(paid_out.amount, 0) end - coalesce(taken.amount, 0) as amount
      ) open_amount
      where i.account_id = ? and i.state = 'issued' and i.amount_due > 0 and i.due_date <= ?
        and open_amount.amount > 0 and ${sitesFilter}
      ${order}`,
      [accountId, dueUntil, sites, sites, accountId, dueUntil, sites, sites],
    );
    return this.rows(rows);
  }

  private rows(rows: readonly CollectableSqlRow[]): CollectableRow[] {
    return rows.map((r) => ({
      paymentId: r.payment_id,
      paymentType: r.payment_type,
      contractId: r.contract_id,
      customerId: r.customer_id,
      siteId: r.site_id,
      contractNumber: r.contract_number,
      invoiceId: r.invoice_id,
      invoiceNumber: r.invoice_number,
      amount: BigInt(r.amount),
      paymentMethodId: r.payment_method_id,
      dueDate: r.due_date,
      reference: r.reference,
      invoiceKind: r.invoice_kind,
      invoiceLocale: r.invoice_locale,
    }));
  }

  async mandateUses(accountId: string, paymentMethodIds: readonly string[]): Promise<Map<string, MandateUse[]>> {
    const uses = new Map<string, MandateUse[]>();
    if (paymentMethodIds.length === 0) return uses;
    const rows = await this.em.execute<{ payment_method_id: string; mandate_reference: string; iban: string; collection_date: string; sequence_type: SequenceType; failed: boolean }[]>(
      `select i.payment_method_id, i.mandate_reference, i.iban, r.collection_date::text as collection_date, i.sequence_type, p.state = 'failed' as failed
        from payment_run_items i
        join payment_runs r on r.account_id = i.account_id and r.id = i.payment_run_id
        join payments p on p.account_id = i.account_id and p.id = i.payment_id
        where i.account_id = ? and r.type = 'direct_debit' and r.state <> 'cancelled'
          and i.payment_method_id in (select value::uuid from json_array_elements_text(?::json))`,
      [accountId, JSON.stringify(paymentMethodIds)],
    );
    for (const row of rows) {
      const key = `${row.payment_method_id}/${row.mandate_reference}/${row.iban}`;
      uses.set(key, [...(uses.get(key) ?? []), { collectionDate: row.collection_date, sequenceType: row.sequence_type, failed: row.failed }]);
    }
    return uses;
  }

  async insertItems(items: readonly PaymentRunItem[]): Promise<void> {
    // The run and the payments the items refer to are staged in the unit of work: written first.
    await this.em.flush();
    const CHUNK = 5000;
    for (let start = 0; start < items.length; start += CHUNK) {
      const rows = items.slice(start, start + CHUNK).map((i) => ({
        account_id: i.accountId,
        payment_run_id: i.paymentRunId,
        payment_id: i.paymentId,
        open: i.open,
        position: i.position,
        customer_id: i.customerId,
        contract_id: i.contractId,
        payment_type: i.paymentType,
        amount: String(i.amount),
        payment_method_id: i.paymentMethodId,
        sequence_type: i.sequenceType,
        mandate_reference: i.mandateReference,
        mandate_signed_at: i.mandateSignedAt,
        name: i.name,
        iban: i.iban,
        bic: i.bic,
        address: i.address,
        remittance: i.remittance,
        end_to_end_id: i.endToEndId,
        created_at: i.createdAt.toISOString(),
      }));
      await boundQuery(this.em, `insert into payment_run_items (${ITEM_INSERT_COLUMNS}) select ${ITEM_INSERT_COLUMNS} from json_populate_recordset(null::payment_run_items, ?::json)`, [
        JSON.stringify(rows),
      ]);
    }
  }

  async items(accountId: string, runId: string, page?: PageQuery): Promise<Page<RunItemRow>> {
    const window = page ? ` limit ${page.limit} offset ${page.offset}` : '';
    const rows = await this.em.execute<ItemSqlRow[]>(
      `select ${ITEM_COLUMNS} from ${ITEMS_WITH_PAYMENTS}
        where i.account_id = ? and i.payment_run_id = ? order by i.position${window}`,
      [accountId, runId],
    );
    const [count] = await this.em.execute<{ total: string }[]>('select count(*) as total from payment_run_items where account_id = ? and payment_run_id = ?', [accountId, runId]);
    return { items: rows.map((r) => this.item(accountId, r)), total: Number(count!.total) };
  }

  async itemsOfRuns(accountId: string, runIds: readonly string[], page: PageQuery): Promise<Map<string, RunItemRow[]>> {
    const rows = await this.em.execute<ItemSqlRow[]>(
      `select * from (
          select ${ITEM_COLUMNS}, row_number() over (partition by i.payment_run_id order by i.position) as place
            from ${ITEMS_WITH_PAYMENTS}
            where i.account_id = ? and i.payment_run_id in (select value::uuid from json_array_elements_text(?::json))
        ) items
        where place > ? and place <= ? order by payment_run_id, position`,
      [accountId, JSON.stringify(runIds), page.offset, page.offset + page.limit],
    );
    const byRun = new Map<string, RunItemRow[]>();
    for (const row of rows) {
      const items = byRun.get(row.payment_run_id) ?? [];
      if (items.length === 0) byRun.set(row.payment_run_id, items);
      items.push(this.item(accountId, row));
    }
    return byRun;
  }

  private item(accountId: string, r: ItemSqlRow): RunItemRow {
    return Object.assign(new PaymentRunItem(), {
      accountId,
      paymentRunId: r.payment_run_id,
      paymentId: r.payment_id,
      open: r.open,
      position: r.position,
      customerId: r.customer_id,
      contractId: r.contract_id,
      paymentType: r.payment_type,
      amount: BigInt(r.amount),
      paymentMethodId: r.payment_method_id,
      sequenceType: r.sequence_type,
      mandateReference: r.mandate_reference,
      mandateSignedAt: r.mandate_signed_at,
      name: r.name,
      iban: r.iban,
      bic: r.bic,
      address: r.address,
      remittance: r.remittance,
      endToEndId: r.end_to_end_id,
      createdAt: new Date(r.created_at),
      paymentState: r.state,
      invoiceId: r.invoice_id,
    });
  }

  async counts(accountId: string, runIds: readonly string[]): Promise<Map<string, RunCounts>> {
    const counts = new Map(runIds.map((id) => [id, { payments: 0, submitted: 0, received: 0, failed: 0 }]));
    if (runIds.length === 0) return counts;
    // Payment states changed in this unit of work (an outcome, a cancel) are written first.
    await this.em.flush();
    const rows = await this.em.execute<{ payment_run_id: string; state: PaymentState; n: string }[]>(
      `select i.payment_run_id, p.state, count(*) as n from ${ITEMS_WITH_PAYMENTS}
        where i.account_id = ? and i.payment_run_id in (select value::uuid from json_array_elements_text(?::json))
        group by i.payment_run_id, p.state`,
      [accountId, JSON.stringify(runIds)],
    );
    for (const row of rows) {
      const run = counts.get(row.payment_run_id)!;
      run.payments += Number(row.n);
      if (row.state === 'submitted' || row.state === 'received' || row.state === 'failed') run[row.state] += Number(row.n);
    }
    return counts;
  }

  async release(accountId: string, runId: string): Promise<void> {
    await this.em.execute('update payment_run_items set open = false where account_id = ? and payment_run_id = ?', [accountId, runId]);
  }

  async contractSites(accountId: string, runId: string): Promise<Map<string, string>> {
    const rows = await this.em.execute<{ contract_id: string; site_id: string }[]>(
      `select distinct i.contract_id, c.site_id from payment_run_items i join contracts c on c.account_id = i.account_id and c.id = i.contract_id
        where i.account_id = ? and i.payment_run_id = ?`,
      [accountId, runId],
    );
    return new Map(rows.map((r) => [r.contract_id, r.site_id]));
  }

  async openRunsHolding(accountId: string, paymentIds: readonly string[]): Promise<PaymentRun[]> {
    if (paymentIds.length === 0) return [];
    const rows = await this.em.execute<{ payment_run_id: string }[]>(
      `select distinct payment_run_id from payment_run_items where account_id = ? and open and payment_id in (select value::uuid from json_array_elements_text(?::json))`,
      [accountId, JSON.stringify(paymentIds)],
    );
    return this.findByIds(accountId, rows.map((r) => r.payment_run_id));
  }
}
