import type { z } from 'zod';
import { mergePatch } from './domain/merge-patch.js';
import { ValidationError } from './errors.js';
import { parseInput, type RemovedField } from './validation.js';

export const READ_ONLY_FIELDS = ['id', 'createdAt', 'updatedAt'] as const;

export interface MergeUpdate<S extends z.ZodType> {
  /** The resource as the API shows it. */
  current: Record<string, unknown>;
  patch: unknown;
  /** Shape of a patch: every field optional, unknown keys rejected. */
  patchSchema: z.ZodType;
  /** The merged resource must be valid as a whole, exactly like a creation. */
  createSchema: S;
  removed?: readonly RemovedField[];
  /** Fields a client may echo back unchanged but not change. */
  readOnly?: readonly string[];
  /** Derived values to reset when the fields they derive from change. */
  adjust?(merged: Record<string, unknown>, changes: Record<string, unknown>): void;
}

/**
 * PATCH as a JSON merge patch (RFC 7396): validate the patch's shape, refuse changes of read-only
 * fields, merge it into the current resource and validate the result as a whole.
 */
export function mergeUpdate<S extends z.ZodType>(update: MergeUpdate<S>): { merged: z.output<S>; changes: Record<string, unknown> } {
  const readOnly = [...READ_ONLY_FIELDS, ...(update.readOnly ?? [])];
  const parsed = parseInput(update.patchSchema, update.patch, { removed: update.removed }) as Record<string, unknown>;
  const errors = readOnly
    .filter((field) => field in parsed && JSON.stringify(parsed[field]) !== JSON.stringify(update.current[field]))
    .map((field) => ({ path: field, code: 'field_read_only', message: `"${field}" is read-only.` }));
  if (errors.length > 0) throw new ValidationError(errors);
  const changes = Object.fromEntries(Object.entries(parsed).filter(([key]) => !readOnly.includes(key)));
  const editable = Object.fromEntries(Object.entries(update.current).filter(([key]) => !(READ_ONLY_FIELDS as readonly string[]).includes(key)));
  const merged = mergePatch(editable, changes) as Record<string, unknown>;
  update.adjust?.(merged, changes);
  return { merged: parseInput(update.createSchema, merged), changes };
}
