import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';

/** Runs a use case in a transaction on the current request's (or job's) EntityManager fork. */
export class MikroUnitOfWork implements UnitOfWork {
  constructor(private readonly em: EntityManager) {}

  async transactional<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await this.em.transactional(work);
    } catch (error) {
      // Use cases check uniqueness first for a precise answer; a unique index catches the race
      // between two concurrent requests, and the later one learns it here instead of seeing a 500.
      if (error instanceof UniqueConstraintViolationException) {
        throw new ConflictError('write_conflict', 'A concurrent request wrote a conflicting record; read the current state and retry.');
      }
      throw error;
    }
  }
}
