import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareWithStored } from '../../../core/domain/measurements/ingest.js';
import { dayRows, instantOf, SLOTS_PER_DAY } from '../../../core/domain/measurements/measurement-day.js';
import { QUARTER_HOUR_MS } from '../../../core/domain/time/buckets.js';

const DAY = '2026-03-29';
const at = (slot: number, day = DAY) => instantOf(day, slot);

describe('day rows of quarter-hour values', () => {
  it('hold every value in its meter, UTC day and slot, and nothing else, in any order of the values', () => {
    const point = fc.record({ meterId: fc.constantFrom('a', 'b', 'c'), quarter: fc.integer({ min: 0, max: 3 * SLOTS_PER_DAY - 1 }), wh: fc.nat() });
    fc.assert(
      fc.property(fc.uniqueArray(point, { selector: (p) => `${p.meterId}/${p.quarter}` }), (points) => {
        const measured = points.map((p) => ({ meterId: p.meterId, at: at(0) + p.quarter * QUARTER_HOUR_MS, wh: p.wh }));
        const rows = dayRows(measured);
        expect(new Set(rows.map((r) => `${r.meterId}/${r.day}`)).size).toBe(rows.length);
        const back = rows.flatMap((r) => r.values.flatMap((wh, slot) => (wh === null ? [] : [{ meterId: r.meterId, at: instantOf(r.day, slot), wh }])));
        const order = (x: { meterId: string; at: number }, y: { meterId: string; at: number }) => x.meterId.localeCompare(y.meterId) || x.at - y.at;
        expect(back.sort(order)).toEqual([...measured].sort(order));
        for (const row of rows) expect(row.values).toHaveLength(SLOTS_PER_DAY);
      }),
    );
  });
});

describe('uploaded values against stored ones', () => {
  const m = (slot: number, wh: number) => ({ meterId: 'a', at: at(slot), wh, index: slot });
  it.each([
    { name: 'nothing stored', stored: [], uploaded: [m(0, 5), m(1, 6)], changed: [0, 1], counts: [2, 0, 0] },
    { name: 'the same values', stored: [{ at: at(0), wh: 5 }], uploaded: [m(0, 5)], changed: [], counts: [0, 0, 1] },
    { name: 'a correction, a new value and an unchanged one', stored: [{ at: at(0), wh: 5 }, { at: at(1), wh: 6 }], uploaded: [m(0, 7), m(1, 6), m(2, 0)], changed: [0, 2], counts: [1, 1, 1] },
    { name: 'a zero replacing a value', stored: [{ at: at(3), wh: 4 }], uploaded: [m(3, 0)], changed: [3], counts: [0, 1, 0] },
  ])('$name', ({ stored, uploaded, changed, counts }) => {
    const result = compareWithStored(uploaded, stored);
    expect(result.changed.map((c) => c.index)).toEqual(changed);
    expect([result.inserted, result.updated, result.unchanged]).toEqual(counts);
  });
});
