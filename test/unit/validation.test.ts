import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { ValidationError } from '../../core/errors.js';
import { formatPath, invalidCharacters, parseInput } from '../../core/validation.js';

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

describe('invalidCharacters', () => {
  const clean = fc.string({ unit: 'grapheme' }).filter((text) => !text.includes('\u0000'));
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, clean, fc.integer(), fc.constant(null), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(clean, tie('value'), { maxKeys: 4 }),
  })).value;

  it('accepts every value made of well-formed text without U+0000', () => {
    fc.assert(fc.property(json, (value) => invalidCharacters(value).length === 0));
  });

  it('finds a bad character wherever it sits, with its path', () => {
    const bad = fc.constantFrom('\u0000', '\ud800', '\udfff', 'a\udc00b', 'x\u0000');
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(3), fc.constantFrom('a', 'b')), { maxLength: 5 }), bad, (path, text) => {
        const value = path.reduceRight<unknown>((inner, key) => (typeof key === 'number' ? [...Array<null>(key).fill(null), inner] : { [key]: inner }), text);
        expect(invalidCharacters(value)).toEqual([{ path: formatPath(path), code: 'invalid_characters', message: expect.any(String) }]);
      }),
    );
  });

  it('walks a body nested 200,000 levels deep without exhausting the stack', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(invalidCharacters(deep)).toHaveLength(1);
  });

  it('is checked by parseInput before the schema', () => {
    expect(errorsOf(() => parseInput(schema, { name: 'a\u0000', items: [{ value: 'x' }] }))).toEqual([['name', 'invalid_characters']]);
  });
});
