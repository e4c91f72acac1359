import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendDayValues, putDayValues } from '../../../core/persistence/measurements/day-values.js';
import type { StoredPoint } from '../../../core/measurements/measurements.repository.js';

const QH = 15 * 60 * 1000;
const BASE = Date.parse('2026-03-29T00:00:00.000Z');

describe('a day row read from its bigint[] text', () => {
  /** Any bigint a column holds, small ones more often, and NULLs. */
  const value = fc.option(fc.oneof(fc.integer({ min: -100_000, max: 10_000_000 }).map(BigInt), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })), { freq: 4 });

  it('gives every non-NULL slot within the bounds as a point, valued as Number() reads its text', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 100 }), fc.integer({ min: -5, max: 105 }), fc.integer({ min: -5, max: 105 }), (values, fromSlot, toSlot) => {
        const text = `{${values.map((v) => (v === null ? 'NULL' : String(v))).join(',')}}`;
        const [from, to] = [BASE + fromSlot * QH, BASE + toSlot * QH];
        const expected = values.flatMap((v, slot) => (v !== null && BASE + slot * QH >= from && BASE + slot * QH <= to ? [{ at: BASE + slot * QH, wh: Number(String(v)) }] : []));
        const points: StoredPoint[] = [{ at: 0, wh: 7 }];
        appendDayValues(text, BASE, from, to, points);
        expect(points).toEqual([{ at: 0, wh: 7 }, ...expected]);
      }),
      { numRuns: 300 },
    );
  });

  it('puts every non-NULL slot inside a series at its index, as the points it reads would go there, leaving the rest', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 100 }), fc.integer({ min: -100, max: 100 }), fc.integer({ min: 0, max: 150 }), (values, firstSlot, length) => {
        const text = `{${values.map((v) => (v === null ? 'NULL' : String(v))).join(',')}}`;
        const first = BASE + firstSlot * QH;
        const series = { wh: new Float64Array(length).fill(-1), complete: new Uint8Array(length) };
        const expected = { wh: new Float64Array(length).fill(-1), complete: new Uint8Array(length) };
        const points: StoredPoint[] = [];
        appendDayValues(text, BASE, first, first + (length - 1) * QH, points);
        for (const { at, wh } of points) {
          expected.wh[(at - first) / QH] = wh;
          expected.complete[(at - first) / QH] = 1;
        }
        putDayValues(text, BASE, first, series);
        expect(series).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('reads the spellings PostgreSQL writes', () => {
    const read = (text: string) => {
      const points: StoredPoint[] = [];
      appendDayValues(text, 0, 0, Number.MAX_SAFE_INTEGER, points);
      return points.map((p) => [p.at / QH, p.wh]);
    };
    expect(read('{}')).toEqual([]);
    expect(read('{NULL}')).toEqual([]);
    expect(read('{0,-1,NULL,42}')).toEqual([[0, 0], [1, -1], [3, 42]]);
    // The largest bigints, rounded to the nearest double as Number('9223372036854775807') does.
    expect(read('{9223372036854775807,-9223372036854775808}')).toEqual([[0, 2 ** 63], [1, -(2 ** 63)]]);
  });
});
