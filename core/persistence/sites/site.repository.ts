import type { EntityManager } from '@mikro-orm/postgresql';
import type { Site } from '../../domain/sites/site.js';
import type { Page, PageQuery } from '../../pagination.js';
import type { SiteRepository } from '../../sites/sites.repository.js';
import { SiteEntity } from './site.entity.js';

export class MikroSiteRepository implements SiteRepository {
  constructor(private readonly em: EntityManager) {}

  add(site: Site): void {
    this.em.persist(site);
  }

  findById(accountId: string, id: string): Promise<Site | null> {
    return this.em.findOne(SiteEntity, { accountId, id });
  }

  async list(accountId: string, page: PageQuery): Promise<Page<Site>> {
    const [items, total] = await this.em.findAndCount(
      SiteEntity,
      { accountId },
      { orderBy: { createdAt: 'asc', id: 'asc' }, limit: page.limit, offset: page.offset },
    );
    return { items, total };
  }
}
