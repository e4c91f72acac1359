import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutdatedDraftRepository } from '../../billing/invoices/outdated-drafts.repository.js';
import type { Bucket } from '../../domain/time/buckets.js';

/** Ids as one JSON parameter. */
const IN_IDS = `(select value::uuid from json_array_elements_text(?::json))`;

/**
 * Marks the account's drafts matching `where` (on `invoices i`, with its parameters). `for key
 * share` waits for a draft being issued and skips it once it is (the state is checked again after
 * the wait).
 */
async function markDrafts(em: EntityManager, accountId: string, where: string, params: readonly unknown[]): Promise<void> {
  await em.execute(
    `with drafts as (select i.account_id, i.id from invoices i where i.account_id = ? and i.state = 'draft' and ${where} for key share of i)
     insert into outdated_drafts (account_id, invoice_id, created_at) select account_id, id, now() from drafts on conflict do nothing`,
    [accountId, ...params],
  );
}

/**
 * The advisory lock a batch that drafts or issues takes exclusively (`holdOffChanges`) and a change
 * of the account's master data takes shared, before it marks drafts: changes do not wait for each other.
 */
const changesLockKey = (accountId: string) => `drafting/${accountId}`;

/** What a change of master data does before it marks drafts: waits for batches that draft or issue (`holdOffChanges`). */
async function awaitBatches(em: EntityManager, accountId: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock_shared(hashtextextended(?, 2))', [changesLockKey(accountId)]);
}

export class MikroOutdatedDraftRepository implements OutdatedDraftRepository {
  constructor(private readonly em: EntityManager) {}

  async holdOffChanges(accountId: string): Promise<void> {
    await this.em.execute('select pg_advisory_xact_lock(hashtextextended(?, 2))', [changesLockKey(accountId)]);
  }

  async markOfSite(accountId: string, siteId: string, spans: readonly Bucket[], timezone: string): Promise<void> {
    if (spans.length === 0) return;
    await markDrafts(
      this.em,
      accountId,
      `i.contract_id in (select c.id from contracts c where c.account_id = i.account_id and c.site_id = ?)
       and exists (select 1 from json_to_recordset(?::json) as s(start_at bigint, end_at bigint)
                    where (i.period_start::timestamp at time zone ?) < to_timestamp(s.end_at / 1000.0)
                      and (i.period_end::timestamp at time zone ?) > to_timestamp(s.start_at / 1000.0))`,
      [siteId, JSON.stringify(spans.map((span) => ({ start_at: span.start, end_at: span.end }))), timezone, timezone],
    );
  }

  async markOfContracts(accountId: string, contractIds: readonly string[]): Promise<void> {
    await awaitBatches(this.em, accountId);
    if (contractIds.length === 0) return;
    await markDrafts(this.em, accountId, `i.contract_id in ${IN_IDS}`, [JSON.stringify(contractIds)]);
  }

  async markOfProducts(accountId: string, productIds: readonly string[]): Promise<void> {
    await awaitBatches(this.em, accountId);
    if (productIds.length === 0) return;
    await markDrafts(
      this.em,
      accountId,
      `i.contract_id in (select c.id from contracts c where c.account_id = i.account_id and c.electricity_product_id in ${IN_IDS})`,
      [JSON.stringify(productIds)],
    );
  }

  async markOfAccount(accountId: string): Promise<void> {
    await awaitBatches(this.em, accountId);
    await markDrafts(this.em, accountId, 'true', []);
  }
}
