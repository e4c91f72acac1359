import type { Actor } from './auth/actor.js';
import { ConflictError } from './errors.js';
import type { DeletableRepository } from './resource.repository.js';

/** Deletes a record nothing refers to; otherwise 409 `<resource>_in_use` naming what does. */
export async function deleteUnreferenced<T extends { id: string }>(repository: DeletableRepository<T>, actor: Actor, resource: string, entity: T): Promise<void> {
  const references = await repository.referencesTo(actor.accountId, entity.id);
  if (references.length > 0) {
    throw new ConflictError(`${resource}_in_use`, `The ${resource.replace(/_/g, ' ')} cannot be deleted while these refer to it: ${references.join(', ')}.`);
  }
  repository.remove(entity);
}
