import type { Site } from '../domain/sites/site.js';
import type { Page, PageQuery } from '../pagination.js';

export interface SiteRepository {
  add(site: Site): void;
  findById(accountId: string, id: string): Promise<Site | null>;
  /** Ordered by createdAt, then id. */
  list(accountId: string, page: PageQuery): Promise<Page<Site>>;
}
