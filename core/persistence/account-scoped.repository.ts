import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page, PageQuery } from '../pagination.js';
import type { ResourceRepository } from '../resource.repository.js';
import { plainRows } from './plain-rows.js';

/** The records found, in the order of the ids asked for. */
function inOrderOf<T extends { id: string }>(ids: readonly string[], found: T[]): T[] {
  const position = new Map(ids.map((id, index) => [id, index]));
  return found.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
}

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

  remove(entity: T): void {
    this.em.remove(entity);
  }

  /**
   * Rows of other tables that refer to a record, counted in one statement: `references` maps a
   * label to `table.column`. Answers e.g. `['meters: 2']`.
   */
  protected async countReferences(accountId: string, id: string, references: Record<string, `${string}.${string}`>): Promise<string[]> {
    const labels = Object.keys(references);
    const counts = labels.map((label, index) => {
      const [table, column] = references[label]!.split('.');
      return `(select count(*) from ${table} where account_id = ? and ${column} = ?) as c${index}`;
    });
    const [row] = await this.em.execute<Record<string, string>[]>(`select ${counts.join(', ')}`, labels.flatMap(() => [accountId, id]));
    return labels.flatMap((label, index) => (Number(row![`c${index}`]) > 0 ? [`${label}: ${row![`c${index}`]}`] : []));
  }

  findById(accountId: string, id: string): Promise<T | null> {
    return this.em.findOne(this.entity, { accountId, id } as FilterQuery<T>);
  }

  /** The records of `ids` that exist, in the order of `ids`. */
  async findByIds(accountId: string, ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    return inOrderOf(ids, await this.em.find(this.entity, { accountId, id: { $in: [...ids] } } as FilterQuery<T>));
  }

  /** Like findByIds, as copies outside the unit of work: for reads of many records that are never written. */
  async readByIds(accountId: string, ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    return inOrderOf(ids, await plainRows(this.em, this.entity, 'account_id = ? and id = any(?::uuid[])', [accountId, ids]));
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
