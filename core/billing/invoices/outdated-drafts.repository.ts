import type { Bucket } from '../../domain/time/buckets.js';

/**
 * Marks drafts outdated when data they were drafted from changes, in the transaction of the
 * change: issuing drafts them again from the data as it stands then (bill runs). A draft being
 * issued is waited for and then left alone (it is issued as drafted). Ingest marks the drafts of
 * changed meters itself, in its one statement (BalancingRepository.markDirty).
 */
export interface OutdatedDraftRepository {
  /**
   * In a batch that drafts or issues: until it commits, marks of contracts, products and the
   * account (and so the changes they come with) wait, and the batch waits for those already made.
   * A change then either commits before the batch reads what it changes, or marks the drafts the
   * batch made; nor can a price change slip past the check that no issued invoice billed it.
   */
  holdOffChanges(accountId: string): Promise<void>;
  /**
   * In the balancing transaction, under the site's lock: the drafts of contracts on the site whose
   * period overlaps a span being balanced again (local dates of `timezone`).
   */
  markOfSite(accountId: string, siteId: string, spans: readonly Bucket[], timezone: string): Promise<void>;
  /** The drafts of these contracts (their dates, product or meter assignments changed); waits while a batch holds the account off (`holdOffChanges`). */
  markOfContracts(accountId: string, contractIds: readonly string[]): Promise<void>;
  /** The drafts of contracts of these electricity products (a price component group, component or price changed); waits as `markOfContracts` does. */
  markOfProducts(accountId: string, productIds: readonly string[]): Promise<void>;
  /** Every draft of the account (a tax rate changed); waits as `markOfContracts` does. */
  markOfAccount(accountId: string): Promise<void>;
}
