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
  /** The change feed's answer since the scope last touched the database (see caughtUpInScope). */
  caughtUp: Promise<boolean> | undefined;

  /** `parent`: the manager a scope opened here would fork at once (the enclosing scope's, or the global one). */
  constructor(private readonly parent: EntityManager) {}

  /**
   * MikroORM asks for it whenever the work touches the database, so every use also drops the
   * change feed's answer. None while the fork is being made: MikroORM's `fork` asks for the
   * context, and the fork is its own.
   */
  get em(): EntityManager | undefined {
    this.caughtUp = undefined;
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

/**
 * `ask` tells whether every change committed before it was called has been announced (a round trip
 * to the database). Within a scope the answer stands until the scope touches the database or ends
 * a transaction: whatever others commit later, a read at that moment would not have shown either,
 * and the scope's own changes are not made yet. So a request reading several cached values asks
 * once, not once per value.
 */
export function caughtUpInScope(ask: () => Promise<boolean>): Promise<boolean> {
  const scope = scopes.getStore();
  return scope ? (scope.caughtUp ??= ask()) : ask();
}

/** A transaction of the current scope ended: what it committed may not have been announced yet. */
export function transactionEnded(): void {
  const scope = scopes.getStore();
  if (scope) scope.caughtUp = undefined;
}

/** MikroORM's `context` option: the current scope's fork, or none outside every scope. */
export function scopedEntityManager(): EntityManager | undefined {
  return scopes.getStore()?.em;
}
