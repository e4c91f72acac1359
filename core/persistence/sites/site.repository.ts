import type { EntityManager } from '@mikro-orm/postgresql';
import type { Site } from '../../domain/sites/site.js';
import type { SiteRepository } from '../../sites/sites.repository.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { SiteEntity } from './site.entity.js';

export class MikroSiteRepository extends AccountScopedRepository<Site> implements SiteRepository {
  constructor(em: EntityManager) {
    super(em, SiteEntity);
  }
}
