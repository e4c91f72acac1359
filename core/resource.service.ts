import type { z } from 'zod';
import type { Actor } from './auth/actor.js';
import type { AccountCache } from './caching/account-cache.js';
import { NotFoundError } from './errors.js';
import { isUuid } from './domain/ids.js';
import type { ResourceRepository } from './resource.repository.js';
import { parseInput, type RemovedField } from './validation.js';

export interface ListResult<V> {
  data: V[];
  total: number;
}

/** The operations every REST resource and GraphQL type is built on. */
export interface ResourceService<V> {
  create?(actor: Actor, input: unknown): Promise<V>;
  get(actor: Actor, id: string): Promise<V>;
  list(actor: Actor, query: unknown): Promise<ListResult<V>>;
  update?(actor: Actor, id: string, patch: unknown): Promise<V>;
  /** Answers the deleted resource as it was. */
  delete?(actor: Actor, id: string): Promise<V>;
}

/** Loads a record of the caller's account; unknown, malformed and foreign ids are all 404. */
export async function loadOwned<T>(repository: ResourceRepository<T, never>, actor: Actor, resource: string, id: string): Promise<T> {
  const found = isUuid(id) ? await repository.findById(actor.accountId, id) : null;
  if (!found) throw new NotFoundError(resource, id);
  return found;
}

/** Records by id in the order of `ids` (unknown ids left out): those `cache` holds, the others loaded together and kept. */
export async function viewsById<V extends { id: string }>(cache: AccountCache<V>, accountId: string, ids: readonly string[], load: (missing: readonly string[]) => Promise<V[]>): Promise<V[]> {
  const views = await cache.getMany(accountId, ids, async (missing) => new Map((await load(missing)).map((view) => [view.id, view])));
  return ids.flatMap((id) => views.get(id) ?? []);
}

/** GET list: parse `limit`, `offset` and the filters, read one page, present it. */
export async function listPage<T, V>(
  repository: ResourceRepository<T, never>,
  actor: Actor,
  schema: z.ZodType<{ limit: number; offset: number }>,
  query: unknown,
  present: (items: T[]) => V[] | Promise<V[]>,
  removed: readonly RemovedField[] = [],
): Promise<ListResult<V>> {
  const { limit, offset, ...filter } = parseInput(schema, query, { unknownCode: 'unknown_parameter', removed });
  const { items, total } = await repository.list(actor.accountId, filter as never, { limit, offset });
  return { data: await present(items), total };
}

/** `createdAt` / `updatedAt` as the API shows them. */
export function timestampsOf(record: { createdAt: Date; updatedAt: Date }): { createdAt: string; updatedAt: string } {
  return { createdAt: record.createdAt.toISOString(), updatedAt: record.updatedAt.toISOString() };
}
