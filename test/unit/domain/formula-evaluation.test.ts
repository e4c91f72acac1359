import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FormulaComponent } from '../../../core/domain/meters/formula.js';
import { evaluateFormula, evaluationOrder } from '../../../core/domain/meters/formula-evaluation.js';

const meter = (meterId: string): FormulaComponent => ({ type: 'meter', meterId });
const minus: FormulaComponent = { type: 'arithmetic', arithmetic: 'subtraction' };
const plus: FormulaComponent = { type: 'arithmetic', arithmetic: 'addition' };

describe('formula evaluation', () => {
  const energy: Record<string, number> = { pv: 500, a: 100, b: 250, c: 75 };
  const source = {
    energy: (id: string) => energy[id],
    members: (aggregation: string) => (aggregation === 'sum_local_consumer' ? ['a', 'b', 'c'] : ['pv']),
  };

  it('evaluates left to right, aggregations as sums, and may be negative', () => {
    expect(evaluateFormula([{ type: 'aggregation', aggregation: 'sum_local_consumer', customerId: null }, minus, meter('pv')], source)).toBe(-75);
    expect(evaluateFormula([meter('a'), plus, meter('b'), minus, meter('c')], source)).toBe(275);
  });

  it('has no value when any operand is missing', () => {
    expect(evaluateFormula([meter('a'), plus, meter('unknown')], source)).toBeUndefined();
  });

  it('equals the signed sum of its operands', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.boolean()), { minLength: 1, maxLength: 10 }), (terms) => {
        const values = new Map(terms.map(([value], i) => [`m${i}`, value]));
        const formula = terms.flatMap(([, add], i): FormulaComponent[] => (i === 0 ? [meter('m0')] : [add ? plus : minus, meter(`m${i}`)]));
        const expected = terms.reduce((sum, [value, add], i) => (i === 0 ? value : add ? sum + value : sum - value), 0);
        expect(evaluateFormula(formula, { energy: (id) => values.get(id), members: () => [] })).toBe(expected);
      }),
    );
  });

  it('orders virtual meters after the virtual meters they name', () => {
    const formulas = new Map<string, FormulaComponent[]>([
      ['v1', [meter('v2'), plus, meter('pv')]],
      ['v2', [meter('v3')]],
      ['v3', [meter('pv')]],
    ]);
    expect(evaluationOrder(formulas)).toEqual(['v3', 'v2', 'v1']);
  });
});
