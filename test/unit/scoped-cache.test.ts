import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScopedCache, type ScopePart } from '../../core/caching/scoped-cache.js';

describe('ScopedCache', () => {
  it('keeps a value per scope and text', () => {
    const cache = new ScopedCache<string>(10);
    cache.set([false, 8, 120.5], 'Summe', 'a');
    cache.set([true, 8, 120.5], 'Summe', 'b');
    cache.set([false, 8, 120], 'Summe', 'c');
    expect([cache.get([false, 8, 120.5], 'Summe'), cache.get([true, 8, 120.5], 'Summe'), cache.get([false, 8, 120], 'Summe')]).toEqual(['a', 'b', 'c']);
    expect(cache.get([false, 8, 120.5], 'Netto')).toBeUndefined();
    expect(cache.get([false, 9, 120.5], 'Summe')).toBeUndefined();
    expect(cache.size).toBe(3);
  });

  it('computes on a miss only', () => {
    const cache = new ScopedCache<number>(10);
    let computed = 0;
    const compute = () => ++computed;
    expect([cache.getOrSet(['x'], 'a', compute), cache.getOrSet(['x'], 'a', compute), cache.getOrSet(['y'], 'a', compute)]).toEqual([1, 1, 2]);
  });

  it('forgets everything when a new entry finds it full, and counts a replaced entry once', () => {
    const cache = new ScopedCache<number>(3);
    cache.set(['s'], 'a', 1);
    cache.set(['s'], 'b', 2);
    cache.set(['t'], 'a', 3);
    cache.set(['t'], 'a', 4);
    expect(cache.size).toBe(3);
    expect(cache.get(['t'], 'a')).toBe(4);
    cache.set(['s'], 'c', 5);
    expect(cache.size).toBe(1);
    expect([cache.get(['s'], 'a'), cache.get(['s'], 'b'), cache.get(['t'], 'a'), cache.get(['s'], 'c')]).toEqual([undefined, undefined, undefined, 5]);
  });

  it('answers as a map keyed by scope and text that is emptied when a new entry finds it full, whatever the order of scopes', () => {
    const part = fc.constantFrom<ScopePart>(false, true, 0, -0, 8, 120.5, Number.NaN, 'F1', 'F2');
    const operation = fc.record({ kind: fc.constantFrom('get', 'set', 'getOrSet'), scope: fc.array(part, { maxLength: 3 }), text: fc.constantFrom('a', 'b', 'Summe'), value: fc.integer() });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(operation, { maxLength: 60 }), (capacity, operations) => {
        const cache = new ScopedCache<number>(capacity);
        const model = new Map<string, number>();
        // A scope part as the cache's maps tell parts apart (SameValueZero: -0 is 0, NaN is NaN).
        const keyOf = (scope: readonly ScopePart[], text: string) => JSON.stringify([scope.map((p) => (typeof p === 'number' ? String(p === 0 ? 0 : p) : p)), text]);
        const put = (key: string, value: number) => {
          if (model.size >= capacity && !model.has(key)) model.clear();
          model.set(key, value);
        };
        for (const { kind, scope, text, value } of operations) {
          const key = keyOf(scope, text);
          if (kind === 'get') expect(cache.get([...scope], text)).toBe(model.get(key));
          if (kind === 'set') {
            cache.set([...scope], text, value);
            put(key, value);
          }
          if (kind === 'getOrSet') {
            const expected = model.get(key) ?? value;
            if (!model.has(key)) put(key, value);
            expect(cache.getOrSet([...scope], text, () => value)).toBe(expected);
          }
          expect(cache.size).toBe(model.size);
        }
      }),
      { numRuns: 500 },
    );
  });
});
