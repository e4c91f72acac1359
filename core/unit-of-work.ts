/**
 * The transaction boundary of a use case: repositories stage changes, `transactional` commits
 * them together (or none of them) when the work resolves.
 */
export interface UnitOfWork {
  transactional<T>(work: () => Promise<T>): Promise<T>;
}
