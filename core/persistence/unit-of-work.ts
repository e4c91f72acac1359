import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { inRequestScope, transactionEnded } from './request-scope.js';

/**
 * PostgreSQL's unique_violation and exclusion_violation (an exclusion constraint is the unique index
 * of ranges, or a deferred "one default"). A deferred constraint fails at COMMIT, where the driver's
 * error reaches us unconverted, so the code is read from whatever was thrown.
 */
const UNIQUENESS_VIOLATIONS = new Set(['23505', '23P01']);

const isUniquenessViolation = (error: unknown) =>
  error instanceof UniqueConstraintViolationException || UNIQUENESS_VIOLATIONS.has(String((error as { code?: unknown } | null)?.code));

/** PostgreSQL's deadlock_detected: it aborts one of the transactions waiting on each other. */
const isDeadlock = (error: unknown) => String((error as { code?: unknown } | null)?.code) === '40P01';

/** How often a use case with a recheck runs when its transaction is a deadlock's victim each time. */
const DEADLOCK_ATTEMPTS = 3;

const writeConflict = () => new ConflictError('write_conflict', 'A concurrent request wrote a conflicting record; read the current state and retry.');

/** Runs a use case in a transaction on the current request's (or job's) EntityManager fork. */
export class MikroUnitOfWork implements UnitOfWork {
  constructor(private readonly em: EntityManager) {}

  async transactional<T>(work: () => Promise<T>, recheck?: () => Promise<void>): Promise<T> {
    try {
      return await this.attempts(work, recheck);
    } finally {
      transactionEnded();
    }
  }

  private async attempts<T>(work: () => Promise<T>, recheck?: () => Promise<void>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.em.transactional(work);
      } catch (error) {
        // Use cases check uniqueness first for a precise answer; a unique index catches the race
        // between two concurrent requests, and the later one learns it here instead of seeing a 500:
        // its recheck now sees what the earlier one committed and gives the answer it would have got
        // coming second. Without a recheck, or when the record has gone again, it is a write conflict.
        // Concurrent inserts into an exclusion constraint wait for each other's rows and can
        // deadlock (PostgreSQL aborts one of them): a use case with a recheck is tried again, and
        // then waits for the other's commit and answers as the later one; a victim every time
        // (several requests at once on a busy machine) gets its recheck's answer, as after a unique
        // index's. Two requests moving the same default can deadlock too: without a recheck the
        // victim is told it was a conflict.
        if (isDeadlock(error)) {
          if (recheck && attempt < DEADLOCK_ATTEMPTS) continue;
          if (recheck) await this.em.transactional(recheck);
          throw writeConflict();
        }
        if (!isUniquenessViolation(error)) throw error;
        if (recheck) await this.em.transactional(recheck);
        throw writeConflict();
      }
    }
  }

  apart<T>(work: () => Promise<T>): Promise<T> {
    return inRequestScope(this.em, work);
  }
}
