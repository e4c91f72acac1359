import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../unit-of-work.js';

/** Runs a use case in a transaction on the current request's (or job's) EntityManager fork. */
export class MikroUnitOfWork implements UnitOfWork {
  constructor(private readonly em: EntityManager) {}

  transactional<T>(work: () => Promise<T>): Promise<T> {
    return this.em.transactional(work);
  }
}
