import type { Bucket } from '../../domain/time/buckets.js';

/**
 * Marks drafts outdated when data they were drafted from changes, in the transaction of the
 * change: issuing drafts them again from the data as it stands then (bill runs). A draft being
 * issued is waited for and then left alone (it is issued as drafted). Ingest marks the drafts of
 * changed meters itself, in its one statement (BalancingRepository.markDirty).
 */
export interface OutdatedDraftRepository {
  /**
   * In the balancing transaction, under the site's lock: the drafts of contracts on the site whose
   * period overlaps a span being balanced again (local dates of `timezone`).
   */
  markOfSite(accountId: string, siteId: string, spans: readonly Bucket[], timezone: string): Promise<void>;
  /** The drafts of these contracts (their dates, product or meter assignments changed). */
  markOfContracts(accountId: string, contractIds: readonly string[]): Promise<void>;
  /** The drafts of contracts of these electricity products (a price component group, component or price changed). */
  markOfProducts(accountId: string, productIds: readonly string[]): Promise<void>;
  /** Every draft of the account (a tax rate changed). */
  markOfAccount(accountId: string): Promise<void>;
}
