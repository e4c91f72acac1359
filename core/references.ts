import { ValidationError } from './errors.js';

export interface ReferenceCheck {
  /** Body field, e.g. `siteId` or `formula[2].meterId`. */
  path: string;
  resource: string;
  id: string;
  exists: boolean;
}

/**
 * An id in a body that is unknown or belongs to another account: 400 `reference_not_found`,
 * worded the same either way so no foreign record is revealed.
 */
export function assertReferences(checks: readonly ReferenceCheck[]): void {
  const missing = checks.filter((check) => !check.exists);
  if (missing.length === 0) return;
  throw new ValidationError(
    missing.map((check) => ({ path: check.path, code: 'reference_not_found', message: `No ${check.resource} with id ${check.id}.` })),
  );
}

/** One looked-up reference: narrows `found`, or answers `reference_not_found`. */
export function assertReference<T>(found: T | null, check: Omit<ReferenceCheck, 'exists'>): asserts found is T {
  assertReferences([{ ...check, exists: found !== null }]);
}
