/**
 * Marks drafts outdated when master data they were drafted from changes, in the transaction of the
 * change: issuing drafts them again from the data as it stands then (bill runs). A draft being
 * issued is waited for and then left alone (it is issued as drafted).
 */
export interface OutdatedDraftRepository {
  /** The drafts of these contracts (their dates, product or meter assignments changed). */
  markOfContracts(accountId: string, contractIds: readonly string[]): Promise<void>;
  /** The drafts of contracts of these electricity products (a price component group, component or price changed). */
  markOfProducts(accountId: string, productIds: readonly string[]): Promise<void>;
  /** Every draft of the account (a tax rate changed). */
  markOfAccount(accountId: string): Promise<void>;
}
