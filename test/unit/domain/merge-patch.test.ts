import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../../core/domain/merge-patch.js';

describe('mergePatch (RFC 7396)', () => {
  // The examples of RFC 7396 appendix A.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('merges %j with %j into %j', (target, patch, expected) => {
    expect(mergePatch(target, patch)).toEqual(expected);
  });

  const json = fc.jsonValue();

  it('leaves the target as it is for an empty patch and never mutates its inputs', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), json), json, (target, patch) => {
        const before = JSON.stringify([target, patch]);
        expect(mergePatch(target, {})).toEqual(target);
        mergePatch(target, patch);
        expect(JSON.stringify([target, patch])).toBe(before);
      }),
    );
  });

  it('is idempotent: applying a patch twice equals applying it once', () => {
    fc.assert(
      fc.property(json, json, (target, patch) => {
        const once = mergePatch(target, patch);
        expect(mergePatch(once, patch)).toEqual(once);
      }),
    );
  });
});
