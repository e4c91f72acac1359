import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from '@mikro-orm/core';

/**
 * A request's (or job's) own EntityManager: its identity map and unit of work. The fork is made
 * when the work first touches the database, not when it starts: most reads of a busy API are
 * answered from the account caches and never need one, and forking up front took about 5 % of
 * the CPU of a GET answered from them.
 */
class RequestScope {
  private fork: EntityManager | undefined;
  private forking = false;

  /** `parent`: the manager a scope opened here would fork at once (the enclosing scope's, or the global one). */
  constructor(private readonly parent: EntityManager) {}

  /** None while the fork is being made: MikroORM's `fork` asks for the context, and the fork is its own. */
  get em(): EntityManager | undefined {
    if (this.fork || this.forking) return this.fork;
    this.forking = true;
    try {
      return (this.fork = this.parent.fork({ useContext: true, disableContextResolution: true }));
    } finally {
      this.forking = false;
    }
  }
}

const scopes = new AsyncLocalStorage<RequestScope>();

/**
 * Runs `work` in a scope of its own, as MikroORM's `RequestContext.create` does: the global
 * EntityManager (every repository holds it) resolves to the scope's fork in everything `work`
 * starts, across awaits.
 */
export function inRequestScope<T>(em: EntityManager, work: () => T): T {
  return scopes.run(new RequestScope(em.getContext(false)), work);
}

/** MikroORM's `context` option: the current scope's fork, or none outside every scope. */
export function scopedEntityManager(): EntityManager | undefined {
  return scopes.getStore()?.em;
}
