import { DriverException, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';

/** PostgreSQL's exclusion_violation: an exclusion constraint is the unique index of ranges. */
const EXCLUSION_VIOLATION = '23P01';

const isUniquenessViolation = (error: unknown) =>
  error instanceof UniqueConstraintViolationException || (error instanceof DriverException && error.code === EXCLUSION_VIOLATION);

/** Runs a use case in a transaction on the current request's (or job's) EntityManager fork. */
export class MikroUnitOfWork implements UnitOfWork {
  constructor(private readonly em: EntityManager) {}

  async transactional<T>(work: () => Promise<T>, recheck?: () => Promise<void>): Promise<T> {
    try {
      return await this.em.transactional(work);
    } catch (error) {
      // Use cases check uniqueness first for a precise answer; a unique index catches the race
      // between two concurrent requests, and the later one learns it here instead of seeing a 500:
      // its recheck now sees what the earlier one committed and gives the answer it would have got
      // coming second. Without a recheck, or when the record has gone again, it is a write conflict.
      if (!isUniquenessViolation(error)) throw error;
      if (recheck) await this.em.transactional(recheck);
      throw new ConflictError('write_conflict', 'A concurrent request wrote a conflicting record; read the current state and retry.');
    }
  }
}
