import { FlushMode, LockMode, Utils } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EInvoiceProfile, InvoiceFilter, InvoiceRepository, LineItemRepository, StoredEInvoice } from '../../billing/invoices/invoices.repository.js';
import type { BillRunCounts, BillRunRepository } from '../../billing/bill-runs/bill-runs.repository.js';
import type { BillRun, BillRunError, BillRunState } from '../../domain/billing/bill-run.js';
import type { Invoice, InvoiceKind, InvoiceState, InvoiceWithLines, LineItem } from '../../domain/billing/invoice.js';
import type { Contract } from '../../domain/contracts/contract.js';
import type { Page, PageQuery } from '../../pagination.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { boundQuery } from '../bound-query.js';
import { batchesOfBytes } from '../statement-batches.js';
import { plainRows } from '../plain-rows.js';
import { insertUnnested } from '../insert-unnested.js';
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
      // NOT IN over the run's rows (a hashed subplan) rather than NOT EXISTS per contract: the planner
      // chose a scan of the run's invoices per contract when its statistics predate the run.
      `select c.id from contracts c where ${BILLABLE}
          and c.id not in (select i.contract_id from invoices i where i.account_id = ? and i.bill_run_id = ?)
          and c.id not in (select e.contract_id from bill_run_errors e where e.account_id = ? and e.bill_run_id = ?)
        order by c.site_id, c.id
        limit ?`,
      [...billableParameters(run), run.accountId, run.id, run.accountId, run.id, limit],
    );
    if (rows.length === 0) return [];
    // Plain rows outside the unit of work, like the contracts' meters: read by the batch, never written.
    return plainRows(this.em, ContractEntity, 'account_id = ? and id = any(?::uuid[]) order by site_id, id', [run.accountId, rows.map((r) => r.id)]);
  }

  async billableAmong(run: BillRun, contractIds: readonly string[]): Promise<Set<string>> {
    if (contractIds.length === 0) return new Set();
    const rows = await this.em.execute<{ id: string }[]>(`select c.id from contracts c where ${BILLABLE} and c.id in ${IN_IDS}`, [...billableParameters(run), ids(contractIds)]);
    return new Set(rows.map((row) => row.id));
  }

  async countBillable(run: BillRun): Promise<number> {
    const [row] = await this.em.execute<{ billable: string }[]>(`select count(*) as billable from contracts c where ${BILLABLE}`, billableParameters(run));
    return Number(row!.billable);
  }

  async counts(accountId: string, runIds: readonly string[]): Promise<Map<string, Omit<BillRunCounts, 'total'>>> {
    if (runIds.length === 0) return new Map();
    // Through the ORM, which writes what the unit of work holds first (flush mode ALWAYS): the counts
    // include the invoices staged or issued and not yet written (a batch's progress event counts it).
    const invoices = await this.em.countBy(InvoiceEntity, ['billRunId', 'state'], { where: { accountId, billRunId: { $in: [...runIds] } }, flushMode: FlushMode.ALWAYS });
    const errors = await this.em.execute<{ bill_run_id: string; errors: string }[]>(
      `select bill_run_id, count(*) as errors from bill_run_errors where account_id = ? and bill_run_id in ${IN_IDS} group by bill_run_id`,
      [accountId, ids(runIds)],
    );
    const counts = new Map(runIds.map((id) => [id, { contracts: 0, invoices: 0, issued: 0, errors: 0 }]));
    for (const [key, count] of Object.entries(invoices)) {
      const [runId, state] = key.split(Utils.PK_SEPARATOR) as [string, InvoiceState];
      const run = counts.get(runId)!;
      run.invoices += count;
      if (state !== 'draft') run.issued += count;
    }
    for (const row of errors) counts.get(row.bill_run_id)!.errors = Number(row.errors);
    for (const run of counts.values()) run.contracts = run.invoices + run.errors;
    return counts;
  }

  errorsOf(accountId: string, runIds: readonly string[]): Promise<BillRunError[]> {
    if (runIds.length === 0) return Promise.resolve([]);
    return this.em.find(BillRunErrorEntity, { accountId, billRunId: { $in: [...runIds] } }, { orderBy: { contractId: 'asc' } });
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

export class MikroInvoiceRepository extends AccountScopedRepository<Invoice, InvoiceFilter> implements InvoiceRepository {
  constructor(em: EntityManager) {
    super(em, InvoiceEntity);
  }

  creditNotesOf(accountId: string, invoices: readonly Pick<Invoice, 'contractId' | 'id'>[]): Promise<Invoice[]> {
    if (invoices.length === 0) return Promise.resolve([]);
    // The contracts narrow the search to their few invoices (an index); no index serves cancelsInvoiceId.
    const contractIds = [...new Set(invoices.map((invoice) => invoice.contractId))];
    return this.em.find(InvoiceEntity, { accountId, contractId: { $in: contractIds }, cancelsInvoiceId: { $in: invoices.map((invoice) => invoice.id) } });
  }

  findStoredByIds(accountId: string, ids: readonly string[]): Promise<Invoice[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.em.find(InvoiceEntity, { accountId, id: { $in: [...ids] } }, { refresh: true });
  }

  lockById(accountId: string, id: string): Promise<Invoice | null> {
    return this.em.findOne(InvoiceEntity, { accountId, id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  addAll(invoices: readonly InvoiceWithLines[]): void {
    for (const { invoice, lines } of invoices) {
      this.em.persist(invoice);
      for (const line of lines) this.em.persist(line);
    }
  }

  async insertDrafts(invoices: readonly InvoiceWithLines[]): Promise<void> {
    if (invoices.length === 0) return;
    await insertUnnested(this.em, InvoiceEntity, invoices.map((i) => i.invoice));
    await insertUnnested(this.em, LineItemEntity, invoices.flatMap((i) => i.lines));
  }

  async contractsInvoiced(accountId: string, contractIds: readonly string[], periodStart: string, periodEnd: string): Promise<Set<string>> {
    if (contractIds.length === 0) return new Set();
    // The exclusion constraint's rule (see InvoiceEntity): an invoice, not cancelled, sharing a day.
    const rows = await this.em.execute<{ contract_id: string }[]>(
      `select distinct i.contract_id from invoices i
        where i.account_id = ? and i.contract_id in ${IN_IDS} and i.kind = 'invoice' and i.state <> 'cancelled'
          and daterange(i.period_start, i.period_end) && daterange(?::date, ?::date)`,
      [accountId, ids(contractIds), periodStart, periodEnd],
    );
    return new Set(rows.map((row) => row.contract_id));
  }

  async draftInputs(accountId: string, runId: string, limit: number): Promise<{ siteIds: string[]; meterIds: string[] }> {
    const [row] = await this.em.execute<{ site_ids: string[] | null; meter_ids: string[] | null }[]>(
      `with c as (
         select c.id, c.site_id, s.type from (select contract_id from invoices where account_id = ? and bill_run_id = ? and state = 'draft' order by id limit ?) i
           join contracts c on c.account_id = ? and c.id = i.contract_id
           join sites s on s.account_id = c.account_id and s.id = c.site_id
       )
       select (select array_agg(distinct site_id) from c) as site_ids,
              (select array_agg(distinct cm.meter_id) from c join contract_meters cm on cm.account_id = ? and cm.contract_id = c.id
                where c.type not like 'balanced%') as meter_ids`,
      [accountId, runId, limit, accountId, accountId],
    );
    return { siteIds: row?.site_ids ?? [], meterIds: row?.meter_ids ?? [] };
  }

  lockDrafts(accountId: string, runId: string, limit: number): Promise<Invoice[]> {
    return this.em.find(InvoiceEntity, { accountId, billRunId: runId, state: 'draft' }, { orderBy: { id: 'asc' }, limit, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  async outdatedDrafts(accountId: string, invoiceIds: readonly string[]): Promise<Set<string>> {
    if (invoiceIds.length === 0) return new Set();
    const rows = await this.em.execute<{ invoice_id: string }[]>(`select invoice_id from outdated_drafts where account_id = ? and invoice_id in ${IN_IDS}`, [accountId, ids(invoiceIds)]);
    return new Set(rows.map((row) => row.invoice_id));
  }

  async replaceDraftLines(accountId: string, invoiceIds: readonly string[], lines: readonly LineItem[]): Promise<void> {
    if (invoiceIds.length === 0) return;
    await this.em.execute(`delete from line_items where account_id = ? and invoice_id in ${IN_IDS}`, [accountId, ids(invoiceIds)]);
    await this.em.execute(`delete from outdated_drafts where account_id = ? and invoice_id in ${IN_IDS}`, [accountId, ids(invoiceIds)]);
    await insertUnnested(this.em, LineItemEntity, lines);
  }

  async removeDrafts(accountId: string, invoiceIds: readonly string[]): Promise<void> {
    if (invoiceIds.length === 0) return;
    // Lines and outdated marks go with their invoice (on delete cascade).
    await this.em.execute(`delete from invoices where account_id = ? and state = 'draft' and id in ${IN_IDS}`, [accountId, ids(invoiceIds)]);
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

  deleteDrafts(accountId: string, runId: string): Promise<number> {
    // Lines go with their invoice (on delete cascade); no use case holds a run's drafts when it is deleted.
    return this.em.nativeDelete(InvoiceEntity, { accountId, billRunId: runId, state: 'draft' });
  }

  async withoutPdf(accountId: string, filter: { runId?: string; ids?: readonly string[] }, limit: number): Promise<Invoice[]> {
    const rows = await this.em.execute<{ id: string }[]>(
      `select i.id from invoices i
        where i.account_id = ? and (i.bill_run_id = ? or i.id in ${IN_IDS}) and i.number is not null
          and not exists (select 1 from invoice_pdfs p where p.account_id = i.account_id and p.invoice_id = i.id)
        order by i.id limit ?`,
      [accountId, filter.runId ?? null, ids(filter.ids ?? []), limit],
    );
    if (rows.length === 0) return [];
    return plainRows(this.em, InvoiceEntity, 'account_id = ? and id = any(?::uuid[]) order by id', [accountId, rows.map((r) => r.id)]);
  }

  // Both bind each document as a parameter of its own: the driver sends a PDF's bytes and an XML's
  // text as they are, where a statement with the values written into it escaped megabytes per batch.
  // A statement takes about a megabyte of documents (batchesOfBytes).
  async savePdfs(accountId: string, pdfs: readonly { invoiceId: string; content: Buffer }[]): Promise<void> {
    for (const batch of batchesOfBytes(pdfs, (pdf) => pdf.content.length)) {
      await boundQuery(
        this.em,
        `insert into invoice_pdfs (invoice_id, account_id, content, created_at)
         select i.id, i.account_id, v.content, now() from (values ${batch.map(() => '(?::uuid, ?::bytea)').join(', ')}) as v(id, content)
         join invoices i on i.account_id = ? and i.id = v.id
         on conflict do nothing`,
        [...batch.flatMap((pdf) => [pdf.invoiceId, pdf.content]), accountId],
      );
    }
  }

  async saveEInvoices(accountId: string, eInvoices: readonly StoredEInvoice[]): Promise<void> {
    for (const batch of batchesOfBytes(eInvoices, (eInvoice) => eInvoice.xml.length)) {
      await boundQuery(
        this.em,
        `insert into invoice_e_invoices (account_id, invoice_id, profile, xml, created_at)
         select ?::uuid, v.invoice_id, v.profile, v.xml, now()
           from (values ${batch.map(() => '(?::uuid, ?::varchar(16), ?::text)').join(', ')}) as v(invoice_id, profile, xml)
         on conflict do nothing`,
        [accountId, ...batch.flatMap((e) => [e.invoiceId, e.profile, e.xml])],
      );
    }
  }

  async eInvoiceOf(accountId: string, invoiceId: string, profile: EInvoiceProfile): Promise<string | null> {
    const [row] = await this.em.execute<{ xml: string }[]>(
      `select xml from invoice_e_invoices where account_id = ? and invoice_id = ? and profile = ?`,
      [accountId, invoiceId, profile],
    );
    return row?.xml ?? null;
  }

  async pdfOf(accountId: string, invoiceId: string): Promise<Buffer | null> {
    const [row] = await this.em.execute<{ content: Buffer }[]>(
      `select p.content from invoice_pdfs p join invoices i on i.id = p.invoice_id and i.account_id = p.account_id where p.account_id = ? and i.id = ?`,
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
    return plainRows(this.em, LineItemEntity, 'account_id = ? and invoice_id = any(?::uuid[]) order by invoice_id, position', [accountId, invoiceIds]);
  }
}
