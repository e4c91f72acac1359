import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page, PageQuery } from '../pagination.js';
import type { ResourceRepository } from '../resource.repository.js';

/** The common queries of every account-scoped table; subclasses add the narrow ones. */
export class AccountScopedRepository<T extends { id: string; accountId: string; createdAt: Date }, F extends object = object>
  implements ResourceRepository<T, F>
{
  constructor(
    protected readonly em: EntityManager,
    protected readonly entity: EntityName<T>,
  ) {}

  add(entity: T): void {
    this.em.persist(entity);
  }

  findById(accountId: string, id: string): Promise<T | null> {
    return this.em.findOne(this.entity, { accountId, id } as FilterQuery<T>);
  }

  findByIds(accountId: string, ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.em.find(this.entity, { accountId, id: { $in: [...ids] } } as FilterQuery<T>);
  }

  async list(accountId: string, filter: F, page: PageQuery): Promise<Page<T>> {
    const where = { accountId, ...Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)) } as FilterQuery<T>;
    const [items, total] = await this.em.findAndCount(this.entity, where, {
      orderBy: { createdAt: 'asc', id: 'asc' } as never,
      limit: page.limit,
      offset: page.offset,
    });
    return { items, total };
  }
}
