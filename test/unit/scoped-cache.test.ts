import { describe, expect, it } from 'vitest';
import { ScopedCache } from '../../core/caching/scoped-cache.js';

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
});
