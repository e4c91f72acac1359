import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ValidationError } from '../../core/errors.js';
import { formatPath, parseInput } from '../../core/validation.js';

const schema = z.object({ name: z.string(), items: z.array(z.object({ value: z.number() }).strict()).optional() }).strict();

function errorsOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors.map((e) => [e.path, e.code]);
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('parseInput', () => {
  it('returns the parsed value when valid', () => {
    expect(parseInput(schema, { name: 'x' })).toEqual({ name: 'x' });
  });

  it('tells missing, null and mistyped values apart', () => {
    expect(errorsOf(() => parseInput(schema, {}))).toEqual([['name', 'required']]);
    expect(errorsOf(() => parseInput(schema, { name: null }))).toEqual([['name', 'not_nullable']]);
    expect(errorsOf(() => parseInput(schema, { name: 3 }))).toEqual([['name', 'invalid_type']]);
  });

  it('names unknown keys as fields or parameters, with array paths', () => {
    expect(errorsOf(() => parseInput(schema, { name: 'x', items: [{ value: 1 }, { value: 1, extra: true }] }))).toEqual([
      ['items[1].extra', 'unknown_field'],
    ]);
    expect(errorsOf(() => parseInput(schema, { name: 'x', q: 1 }, { unknownCode: 'unknown_parameter' }))).toEqual([['q', 'unknown_parameter']]);
  });

  it('reports removed fields once, as field_removed naming the replacement', () => {
    const error = (() => {
      try {
        parseInput(schema, { name: 'x', old: 1 }, { removed: [{ path: ['old'], replacement: 'name' }] });
      } catch (e) {
        return e as ValidationError;
      }
    })();
    expect(error?.errors).toEqual([{ path: 'old', code: 'field_removed', message: '"old" was removed; use name.' }]);
  });

  it('formats paths like JSON paths', () => {
    expect(formatPath(['a', 0, 'b'])).toBe('a[0].b');
    expect(formatPath([2, 'x'])).toBe('[2].x');
    expect(formatPath([])).toBe('');
  });
});
