import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { InvoiceFilter, InvoiceRepository, LineItemRepository } from '../../billing/invoices/invoices.repository.js';
import type { BillRunCounts, BillRunRepository } from '../../billing/bill-runs/bill-runs.repository.js';
import type { BillRun, BillRunError, BillRunState } from '../../domain/billing/bill-run.js';
import type { Invoice, InvoiceKind, LineItem } from '../../domain/billing/invoice.js';
import type { Contract } from '../../domain/contracts/contract.js';
import type { Page, PageQuery } from '../../pagination.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { ContractEntity } from '../contracts/contract.persistence.js';
import { BillRunEntity, BillRunErrorEntity, InvoiceEntity, LineItemEntity } from './invoice.persistence.js';

/** Ids as one JSON parameter: any number of them in one statement. */
const ids = (values: readonly string[]) => JSON.stringify(values);
const IN_IDS = `(select value::uuid from json_array_elements_text(?::json))`;

/**
 * `inForce` of core/domain/periods.ts in SQL: a record `[start_date, end_date)` (null end: open)
 * shares a day with the period `[?, ?)`. PostgreSQL's daterange has exactly these bounds.
 */
const inForceSql = (alias: string) => `daterange(${alias}.start_date, ${alias}.end_date) && daterange(?::date, ?::date)`;

/** Contracts `c` a run bills: in force in the period, on its sites, with a contract meter in force in it. */
const BILLABLE = `c.account_id = ? and ${inForceSql('c')}
  and (?::json is null or c.site_id in ${IN_IDS})
  and exists (select 1 from contract_meters cm where cm.account_id = c.account_id and cm.contract_id = c.id and ${inForceSql('cm')})`;

function billableParameters(run: BillRun): unknown[] {
  const sites = run.siteIds && ids(run.siteIds);
  return [run.accountId, run.periodStart, run.periodEnd, sites, sites, run.periodStart, run.periodEnd];
}

export class MikroBillRunRepository extends AccountScopedRepository<BillRun, { state?: BillRunState }> implements BillRunRepository {
  constructor(em: EntityManager) {
    super(em, BillRunEntity);
  }

  lockById(accountId: string, id: string): Promise<BillRun | null> {
    return this.em.findOne(BillRunEntity, { accountId, id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  async unhandledContracts(run: BillRun, limit: number): Promise<Contract[]> {
    const rows = await this.em.execute<{ id: string }[]>(
      `select c.id from contracts c where ${BILLABLE}
          and not exists (select 1 from invoices i where i.bill_run_id = ? and i.contract_id = c.id)
          and not exists (select 1 from bill_run_errors e where e.bill_run_id = ? and e.contract_id = c.id)
        order by c.site_id, c.id
        limit ?`,
      [...billableParameters(run), run.id, run.id, limit],
    );
    if (rows.length === 0) return [];
    return this.em.find(ContractEntity, { id: { $in: rows.map((r) => r.id) } }, { orderBy: { siteId: 'asc', id: 'asc' } });
  }

  async countBillable(run: BillRun): Promise<number> {
    const [row] = await this.em.execute<{ billable: string }[]>(`select count(*) as billable from contracts c where ${BILLABLE}`, billableParameters(run));
    return Number(row!.billable);
  }

  async counts(runIds: readonly string[]): Promise<Map<string, Omit<BillRunCounts, 'total'>>> {
    if (runIds.length === 0) return new Map();
    const rows = await this.em.execute<{ id: string; invoices: string; issued: string; errors: string }[]>(
      `select r.id,
              (select count(*) from invoices i where i.bill_run_id = r.id::uuid) as invoices,
              (select count(*) from invoices i where i.bill_run_id = r.id::uuid and i.state <> 'draft') as issued,
              (select count(*) from bill_run_errors e where e.bill_run_id = r.id::uuid) as errors
         from json_array_elements_text(?::json) as r(id)`,
      [ids(runIds)],
    );
    return new Map(
      rows.map((row) => {
        const [invoices, issued, errors] = [Number(row.invoices), Number(row.issued), Number(row.errors)];
        return [row.id, { contracts: invoices + errors, invoices, issued, errors }];
      }),
    );
  }

  errorsOf(runIds: readonly string[]): Promise<BillRunError[]> {
    if (runIds.length === 0) return Promise.resolve([]);
    return this.em.find(BillRunErrorEntity, { billRunId: { $in: [...runIds] } }, { orderBy: { contractId: 'asc' } });
  }

  async addErrors(errors: readonly BillRunError[]): Promise<void> {
    if (errors.length === 0) return;
    const rows = errors.map((e) => ({ bill_run_id: e.billRunId, contract_id: e.contractId, account_id: e.accountId, code: e.code, message: e.message, created_at: e.createdAt }));
    await this.em.execute(`insert into bill_run_errors select * from json_populate_recordset(null::bill_run_errors, ?::json) on conflict do nothing`, [JSON.stringify(rows)]);
  }

  async unfinished(): Promise<Pick<BillRun, 'id' | 'accountId'>[]> {
    const rows = await this.em.execute<{ id: string; account_id: string }[]>(
      `select id, account_id from bill_runs where state in ('creating', 'completing') and (lease_until is null or lease_until < now())`,
    );
    return rows.map((row) => ({ id: row.id, accountId: row.account_id }));
  }

  async lockCreation(accountId: string): Promise<void> {
    await this.em.execute('select pg_advisory_xact_lock(hashtextextended(?, 2))', [accountId]);
  }

  notCompleted(accountId: string): Promise<BillRun[]> {
    return this.em.find(BillRunEntity, { accountId, state: { $ne: 'completed' } }, { orderBy: { createdAt: 'asc', id: 'asc' }, refresh: true });
  }
}

function invoiceRow(invoice: Invoice): Record<string, unknown> {
  return {
    id: invoice.id,
    account_id: invoice.accountId,
    kind: invoice.kind,
    number: invoice.number,
    contract_id: invoice.contractId,
    customer_id: invoice.customerId,
    bill_run_id: invoice.billRunId,
    period_start: invoice.periodStart,
    period_end: invoice.periodEnd,
    state: invoice.state,
    net_total: invoice.netTotal,
    taxes: invoice.taxes,
    gross_total: invoice.grossTotal,
    prepayments_total: invoice.prepaymentsTotal,
    amount_due: invoice.amountDue,
    prepayment_ids: invoice.prepaymentIds,
    issued_at: invoice.issuedAt,
    due_date: invoice.dueDate,
    template_id: invoice.templateId,
    cancels_invoice_id: invoice.cancelsInvoiceId,
    created_at: invoice.createdAt,
    updated_at: invoice.updatedAt,
  };
}

function lineRow(line: LineItem): Record<string, unknown> {
  return {
    id: line.id,
    account_id: line.accountId,
    invoice_id: line.invoiceId,
    contract_id: line.contractId,
    position: line.position,
    description: line.description,
    kind: line.kind,
    quantity: line.quantity,
    quantity_scale: line.quantityScale,
    unit: line.unit,
    unit_price: line.unitPrice,
    net_amount: line.netAmount,
    tax_rate_id: line.taxRateId,
    tax_rate: line.taxRate,
    period_start: line.periodStart,
    period_end: line.periodEnd,
    price_component_id: line.priceComponentId,
    price_id: line.priceId,
    meter_id: line.meterId,
    created_at: line.createdAt,
  };
}

export class MikroInvoiceRepository extends AccountScopedRepository<Invoice, InvoiceFilter> implements InvoiceRepository {
  constructor(em: EntityManager) {
    super(em, InvoiceEntity);
  }

  lockById(accountId: string, id: string): Promise<Invoice | null> {
    return this.em.findOne(InvoiceEntity, { accountId, id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  async insertWithLines(invoices: readonly Invoice[], lines: readonly LineItem[]): Promise<Set<string>> {
    if (invoices.length === 0) return new Set();
    // `on conflict do nothing` also covers the exclusion constraint: an invoice overlapping one that
    // is not cancelled is simply not written.
    const written = await this.em.execute<{ id: string }[]>(
      `insert into invoices select * from json_populate_recordset(null::invoices, ?::json) on conflict do nothing returning id`,
      [JSON.stringify(invoices.map(invoiceRow))],
    );
    const ok = new Set(written.map((row) => row.id));
    await this.insertLines(lines.filter((line) => ok.has(line.invoiceId)));
    return ok;
  }

  private async insertLines(lines: readonly LineItem[]): Promise<void> {
    if (lines.length === 0) return;
    await this.em.execute(`insert into line_items select * from json_populate_recordset(null::line_items, ?::json)`, [JSON.stringify(lines.map(lineRow))]);
  }

  lockDrafts(runId: string, limit: number): Promise<Invoice[]> {
    return this.em.find(InvoiceEntity, { billRunId: runId, state: 'draft' }, { orderBy: { id: 'asc' }, limit, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  flush(): Promise<void> {
    return this.em.flush();
  }

  async reserveNumbers(accountId: string, kind: InvoiceKind, year: number, count: number): Promise<number> {
    const [row] = await this.em.execute<{ last_number: number }[]>(
      `insert into invoice_counters (account_id, kind, year, last_number) values (?, ?, ?, ?)
       on conflict (account_id, kind, year) do update set last_number = invoice_counters.last_number + excluded.last_number
       returning last_number`,
      [accountId, kind, year, count],
    );
    return row!.last_number - count + 1;
  }

  async setPaymentLocks(accountId: string, paymentIds: readonly string[], lockedAt: Date | null, now: Date): Promise<string[]> {
    if (paymentIds.length === 0) return [];
    const changed = await this.em.execute<{ id: string }[]>(
      `update payments set locked_at = ?, updated_at = ?
        where account_id = ? and locked_at is ${lockedAt ? 'null' : 'not null'} and id in ${IN_IDS}
        returning id`,
      [lockedAt, now, accountId, ids(paymentIds)],
    );
    return changed.map((row) => row.id);
  }

  async deleteDrafts(runId: string): Promise<number> {
    const rows = await this.em.execute<{ id: string }[]>(`delete from invoices where bill_run_id = ? and state = 'draft' returning id`, [runId]);
    return rows.length;
  }

  async withoutPdf(filter: { runId?: string; ids?: readonly string[] }, limit: number): Promise<Invoice[]> {
    const rows = await this.em.execute<{ id: string }[]>(
      `select i.id from invoices i
        where (i.bill_run_id = ? or i.id in ${IN_IDS}) and i.number is not null
          and not exists (select 1 from invoice_pdfs p where p.invoice_id = i.id)
        order by i.id limit ?`,
      [filter.runId ?? null, ids(filter.ids ?? []), limit],
    );
    if (rows.length === 0) return [];
    return this.em.find(InvoiceEntity, { id: { $in: rows.map((r) => r.id) } }, { orderBy: { id: 'asc' } });
  }

  async savePdfs(pdfs: readonly { invoiceId: string; content: Buffer }[]): Promise<void> {
    if (pdfs.length === 0) return;
    await this.em.execute(
      `insert into invoice_pdfs (invoice_id, account_id, content, created_at)
       select i.id, i.account_id, v.content, now() from (values ${pdfs.map(() => '(?::uuid, ?::bytea)').join(', ')}) as v(id, content) join invoices i on i.id = v.id
       on conflict do nothing`,
      pdfs.flatMap((pdf) => [pdf.invoiceId, pdf.content]),
    );
  }

  async pdfOf(accountId: string, invoiceId: string): Promise<Buffer | null> {
    const [row] = await this.em.execute<{ content: Buffer }[]>(
      `select p.content from invoice_pdfs p join invoices i on i.id = p.invoice_id where i.account_id = ? and i.id = ?`,
      [accountId, invoiceId],
    );
    return row?.content ?? null;
  }

  findByContractIds(accountId: string, contractIds: readonly string[]): Promise<Invoice[]> {
    return this.em.find(InvoiceEntity, { accountId, contractId: { $in: [...contractIds] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  findByCustomerIds(accountId: string, customerIds: readonly string[]): Promise<Invoice[]> {
    return this.em.find(InvoiceEntity, { accountId, customerId: { $in: [...customerIds] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }
}

export class MikroLineItemRepository extends AccountScopedRepository<LineItem, { invoiceId?: string; contractId?: string }> implements LineItemRepository {
  constructor(em: EntityManager) {
    super(em, LineItemEntity);
  }

  /** An invoice's lines in their order. */
  override async list(accountId: string, filter: { invoiceId?: string; contractId?: string }, page: PageQuery): Promise<Page<LineItem>> {
    const where = { accountId, ...(filter.invoiceId ? { invoiceId: filter.invoiceId } : {}), ...(filter.contractId ? { contractId: filter.contractId } : {}) };
    const [items, total] = await this.em.findAndCount(LineItemEntity, where, { orderBy: { createdAt: 'asc', invoiceId: 'asc', position: 'asc' }, limit: page.limit, offset: page.offset });
    return { items, total };
  }

  findByInvoiceIds(accountId: string, invoiceIds: readonly string[]): Promise<LineItem[]> {
    if (invoiceIds.length === 0) return Promise.resolve([]);
    return this.em.find(LineItemEntity, { accountId, invoiceId: { $in: [...invoiceIds] } }, { orderBy: { invoiceId: 'asc', position: 'asc' } });
  }
}
