import type { Page, PageQuery } from './pagination.js';

/** Storage of one account-scoped resource; areas extend it with use-case-shaped queries. */
export interface ResourceRepository<T, F extends object = object> {
  add(entity: T): void;
  findById(accountId: string, id: string): Promise<T | null>;
  findByIds(accountId: string, ids: readonly string[]): Promise<T[]>;
  /** The same records as copies outside the unit of work: changing one writes nothing. */
  readByIds(accountId: string, ids: readonly string[]): Promise<T[]>;
  /** Ordered by createdAt, then id. */
  list(accountId: string, filter: F, page: PageQuery): Promise<Page<T>>;
}

/** A resource internal tools may delete when nothing refers to it. */
export interface DeletableRepository<T> {
  /** What refers to the record, e.g. `2 meters`; empty when it can go. */
  referencesTo(accountId: string, id: string): Promise<string[]>;
  /** Staged: the row is deleted when the unit of work commits. */
  remove(entity: T): void;
}
