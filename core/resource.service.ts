import type { Actor } from './auth/actor.js';
import { NotFoundError } from './errors.js';
import { isUuid } from './ids.js';
import type { ResourceRepository } from './resource.repository.js';

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
}

/** Loads a record of the caller's account; unknown, malformed and foreign ids are all 404. */
export async function loadOwned<T>(repository: ResourceRepository<T, never>, actor: Actor, resource: string, id: string): Promise<T> {
  const found = isUuid(id) ? await repository.findById(actor.accountId, id) : null;
  if (!found) throw new NotFoundError(resource, id);
  return found;
}
