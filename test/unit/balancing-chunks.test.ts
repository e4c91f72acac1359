import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunksOf } from '../../core/balancing/balancing.service.js';

const DAY = 86_400_000;
const QH = 900_000;
const quarterHourSite = { balanceResolution: 'PT15M' as const };

describe('balancing chunks of quarter-hour sites', () => {
  it('never span a gap between pending ranges: a correction a year back and today each get their own days', () => {
    const lastYear = Date.parse('2025-10-01T00:00:00Z');
    const thisYear = Date.parse('2026-10-01T00:00:00Z');
    const chunks = chunksOf(quarterHourSite, [{ from: lastYear, to: lastYear + 3 * DAY }, { from: thisYear, to: thisYear + 3 * DAY }], 'Europe/Berlin');
    for (const chunk of chunks) {
      for (let i = 1; i < chunk.length; i++) expect(chunk[i]!.start).toBe(chunk[i - 1]!.end);
    }
    expect(chunks.flat().some((b) => b.start < thisYear && b.start >= lastYear)).toBe(true);
    expect(chunks.flat().some((b) => b.start >= thisYear)).toBe(true);
  });

  it('cover every pending quarter hour once, in contiguous chunks of at most seven days', () => {
    const base = Date.parse('2026-01-01T00:00:00Z');
    const range = fc.tuple(fc.integer({ min: 0, max: 700 * 96 }), fc.integer({ min: 1, max: 20 * 96 })).map(([start, length]) => ({ from: base + start * QH, to: base + (start + length) * QH }));
    fc.assert(
      fc.property(fc.array(range, { minLength: 1, maxLength: 5 }), (ranges) => {
        const buckets = chunksOf(quarterHourSite, ranges, 'Europe/Berlin');
        const starts = buckets.flat().map((b) => b.start);
        const covered = new Set(starts);
        expect(covered.size).toBe(starts.length);
        for (const { from, to } of ranges) for (let t = Math.floor(from / QH) * QH; t < to; t += QH) if (!covered.has(t)) expect.fail(`${new Date(t).toISOString()} is in no chunk`);
        for (const chunk of buckets) {
          expect(chunk.length).toBeLessThanOrEqual(7 * 96);
          for (let i = 1; i < chunk.length; i++) expect(chunk[i]!.start).toBe(chunk[i - 1]!.end);
        }
      }),
      { numRuns: 40 },
    );
  });
});
