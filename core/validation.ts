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

/** U+0000 and unpaired surrogates: text PostgreSQL cannot store (nor jsonb hold). */
function hasInvalidCharacters(text: string): boolean {
  return text.includes('\u0000') || !text.isWellFormed();
}

interface Location {
  parent: Location | null;
  key: PropertyKey;
}

function pathOf(location: Location | null): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at = location; at; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * Every string (and object key) of an input that holds characters no column can store, found
 * before any schema runs. Iterative with parent links, so that a deeply nested body costs neither
 * stack nor a copy of its path per level.
 */
export function invalidCharacters(input: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const pending: Array<{ value: unknown; at: Location | null }> = [{ value: input, at: null }];
  const fail = (at: Location | null) =>
    errors.push({ path: formatPath(pathOf(at)), code: 'invalid_characters', message: 'Text must not contain U+0000 or unpaired surrogates.' });
  while (pending.length > 0) {
    const { value, at } = pending.pop()!;
    if (typeof value === 'string') {
      if (hasInvalidCharacters(value)) fail(at);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push({ value: item, at: { parent: at, key: index } }));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (hasInvalidCharacters(key)) fail(at);
        else pending.push({ value: item, at: { parent: at, key } });
      }
    }
  }
  return errors.reverse();
}

/**
 * Parses a command with its zod schema. Every problem becomes one FieldError with a stable code;
 * removed fields are reported as `field_removed` naming their replacement.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, options: ParseOptions = {}): z.output<S> {
  const characterErrors = invalidCharacters(input);
  if (characterErrors.length > 0) throw new ValidationError(characterErrors);
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
