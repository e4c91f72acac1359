import { z } from 'zod';
import { ValidationError, type FieldError } from './errors.js';

/** A field a partner may still send but which was removed from the contract. */
export interface RemovedField {
  /** Path in the input, e.g. ['address', 'address1']. */
  path: readonly string[];
  /** What to send instead, shown in the error message. */
  replacement: string;
}

export interface ParseOptions {
  removed?: readonly RemovedField[];
  /** Code for keys the schema does not know: `unknown_field` for bodies, `unknown_parameter` for queries. */
  unknownCode?: string;
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => {
    if (typeof key === 'number') return `${acc}[${key}]`;
    return acc ? `${acc}.${String(key)}` : String(key);
  }, '');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function hasPath(input: unknown, path: readonly string[]): boolean {
  const parent = valueAt(input, path.slice(0, -1));
  return parent !== null && typeof parent === 'object' && Object.hasOwn(parent, path[path.length - 1]!);
}

function issueToErrors(issue: z.core.$ZodIssue, input: unknown, unknownCode: string): FieldError[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      path: formatPath([...issue.path, key]),
      code: unknownCode,
      message: `Unknown ${unknownCode === 'unknown_parameter' ? 'parameter' : 'field'} "${key}".`,
    }));
  }
  const path = formatPath(issue.path);
  if (issue.code === 'invalid_type') {
    const value = valueAt(input, issue.path);
    if (value === undefined) return [{ path, code: 'required', message: 'This field is required.' }];
    if (value === null) return [{ path, code: 'not_nullable', message: 'This field cannot be null.' }];
    return [{ path, code: 'invalid_type', message: `Expected ${issue.expected}.` }];
  }
  if (issue.code === 'custom') {
    const code = typeof issue.params?.code === 'string' ? issue.params.code : 'invalid_value';
    return [{ path, code, message: issue.message }];
  }
  return [{ path, code: issue.code, message: issue.message }];
}

/**
 * Parses a command with its zod schema. Every problem becomes one FieldError with a stable code;
 * removed fields are reported as `field_removed` naming their replacement.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, options: ParseOptions = {}): z.output<S> {
  const unknownCode = options.unknownCode ?? 'unknown_field';
  const removedErrors: FieldError[] = (options.removed ?? [])
    .filter((field) => hasPath(input, field.path))
    .map((field) => ({
      path: formatPath(field.path),
      code: 'field_removed',
      message: `"${formatPath(field.path)}" was removed; use ${field.replacement}.`,
    }));
  const result = schema.safeParse(input);
  if (result.success && removedErrors.length === 0) return result.data;
  const removedPaths = new Set(removedErrors.map((e) => e.path));
  const schemaErrors = result.success
    ? []
    : result.error.issues
        .flatMap((issue) => issueToErrors(issue, input, unknownCode))
        .filter((e) => !removedPaths.has(e.path));
  throw new ValidationError([...removedErrors, ...schemaErrors]);
}

/**
 * Parses every item of a batch on its own, so that one answer can name every invalid item:
 * the valid ones with their index, and the errors with `pathOf(index)` in front of their paths.
 */
export function parseEach<S extends z.ZodType>(
  schema: S,
  items: readonly unknown[],
  pathOf: (index: number) => string,
): { valid: Array<{ index: number; value: z.output<S> }>; errors: FieldError[] } {
  const valid: Array<{ index: number; value: z.output<S> }> = [];
  const errors: FieldError[] = [];
  items.forEach((item, index) => {
    try {
      valid.push({ index, value: parseInput(schema, item) });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      errors.push(...error.errors.map((e) => ({ ...e, path: `${pathOf(index)}${e.path}` })));
    }
  });
  return { valid, errors };
}
