/**
 * The transaction boundary of a use case: repositories stage changes, `transactional` commits
 * them together (or none of them) when the work resolves.
 */
export interface UnitOfWork {
  /**
   * `recheck` is the use case's own uniqueness check. When a concurrent request committed first and
   * a unique index refuses this one, it runs again on the committed state and throws the conflict
   * the use case answers when the requests come one after the other. A use case with a recheck is
   * run again when PostgreSQL aborts its transaction to resolve a deadlock, so `work` must not act
   * outside the transaction.
   */
  transactional<T>(work: () => Promise<T>, recheck?: () => Promise<void>): Promise<T>;
  /**
   * Runs `work` in a unit of work of its own that starts empty and is dropped when it ends. For
   * the batches of a long job: a commit compares every record its unit of work holds, so batches
   * sharing one would each compare all that the earlier ones read.
   */
  apart<T>(work: () => Promise<T>): Promise<T>;
}
