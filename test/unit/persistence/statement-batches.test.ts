import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchesOfBytes } from '../../../core/persistence/statement-batches.js';

describe('batchesOfBytes', () => {
  it.each([
    { sizes: [], limit: 10, expected: [] },
    { sizes: [4, 4, 4], limit: 10, expected: [[4, 4], [4]] },
    { sizes: [5, 5, 5, 5], limit: 10, expected: [[5, 5], [5, 5]] },
    { sizes: [11, 3, 12], limit: 10, expected: [[11], [3], [12]] },
    { sizes: [3, 11, 3], limit: 10, expected: [[3], [11], [3]] },
  ])('cuts $sizes at $limit bytes into $expected', ({ sizes, limit, expected }) => {
    expect(batchesOfBytes(sizes, (size) => size, limit)).toEqual(expected);
  });

  it('keeps every item once and in order, and goes over the limit only with an item alone', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 })), fc.integer({ min: 1, max: 60 }), (sizes, limit) => {
        const batches = batchesOfBytes(sizes, (size) => size, limit);
        expect(batches.flat()).toEqual(sizes);
        for (const batch of batches) {
          expect(batch.length).toBeGreaterThan(0);
          const bytes = batch.reduce((sum, size) => sum + size, 0);
          if (bytes > limit) expect(batch).toHaveLength(1);
        }
        // No two neighbouring batches would have fitted into one.
        for (let i = 1; i < batches.length; i++) expect(batches[i - 1]!.reduce((a, b) => a + b, 0) + batches[i]![0]!).toBeGreaterThan(limit);
      }),
    );
  });
});
