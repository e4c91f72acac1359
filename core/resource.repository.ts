import type { Page, PageQuery } from './pagination.js';

/** Storage of one account-scoped resource; areas extend it with use-case-shaped queries. */
export interface ResourceRepository<T, F extends object = object> {
  add(entity: T): void;
  findById(accountId: string, id: string): Promise<T | null>;
  findByIds(accountId: string, ids: readonly string[]): Promise<T[]>;
  /** Ordered by createdAt, then id. */
  list(accountId: string, filter: F, page: PageQuery): Promise<Page<T>>;
}
