/** What a process may keep in memory because the database tells it when the rows change. */
export const CHANGE_TOPICS = ['credentials', 'custom_attributes', 'sites', 'customers', 'meters'] as const;
export type ChangeTopic = (typeof CHANGE_TOPICS)[number];

/** `accountId` when that account's rows of the topic changed; `null` when changes may have been missed. */
export type ChangeListener = (accountId: string | null) => void;

/**
 * Changes committed by any process, as PostgreSQL announces them. A cache may answer from memory
 * only once the feed has caught up: every change committed before the question has been announced.
 * A feed that lost its connection cannot tell what changed meanwhile and never catches up.
 */
export interface ChangeFeed {
  readonly live: boolean;
  subscribe(topic: ChangeTopic, listener: ChangeListener): void;
  /**
   * True once every change committed before the call has been announced; false while the feed is
   * down. A request that asked before, and has neither touched the database nor ended a
   * transaction since, may be answered as of that question.
   */
  caughtUp(): Promise<boolean>;
}

/** No feed (the embedded database, or caching switched off): every read goes to the database. */
export const noChangeFeed: ChangeFeed = { live: false, subscribe: () => {}, caughtUp: async () => false };
