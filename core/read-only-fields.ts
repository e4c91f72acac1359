import { ValidationError } from './errors.js';

/**
 * Read-only fields may be echoed back unchanged in a PATCH body (clients send what they read);
 * any other value is `field_read_only`. Returns the patch without them.
 */
export function stripReadOnly(patch: Record<string, unknown>, current: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const errors = fields
    .filter((field) => field in patch && patch[field] !== current[field])
    .map((field) => ({ path: field, code: 'field_read_only', message: `"${field}" is read-only.` }));
  if (errors.length > 0) throw new ValidationError(errors);
  return Object.fromEntries(Object.entries(patch).filter(([key]) => !fields.includes(key)));
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
