import type { Site } from '../domain/sites/site.js';
import type { DeletableRepository, ResourceRepository } from '../resource.repository.js';

export interface SiteRepository extends ResourceRepository<Site>, DeletableRepository<Site> {
  /** Serialises changes of what the site's balancing depends on: its key, its settings' shares (row lock until the transaction ends). */
  lock(accountId: string, id: string): Promise<void>;
}
