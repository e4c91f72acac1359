/**
 * The transaction boundary of a use case: repositories stage changes, `transactional` commits
 * them together (or none of them) when the work resolves.
 */
export interface UnitOfWork {
  /**
   * `recheck` is the use case's own uniqueness check. When a concurrent request committed first and
   * a unique index refuses this one, it runs again on the committed state and throws the conflict
   * the use case answers when the requests come one after the other.
   */
  transactional<T>(work: () => Promise<T>, recheck?: () => Promise<void>): Promise<T>;
}
