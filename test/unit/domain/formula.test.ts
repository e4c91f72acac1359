import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AGGREGATIONS,
  ARITHMETICS,
  type FormulaComponent,
  findCycle,
  parseFormula,
  referencedCustomerIds,
  referencedMeterIds,
} from '../../../core/domain/meters/formula.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';

const meter = (meterId: unknown = A) => ({ type: 'meter', meterId });
const plus = { type: 'arithmetic', arithmetic: 'addition' };
const minus = { type: 'arithmetic', arithmetic: 'subtraction' };
const localProducer = { type: 'aggregation', aggregation: 'sum_local_producer' };

function errorsOf(input: unknown): [string, string][] {
  const result = parseFormula(input);
  if (result.ok) return [];
  for (const error of result.errors) expect(error.message).toMatch(/\S/);
  return result.errors.map((e) => [e.path, e.code]);
}

describe('parseFormula', () => {
  it.each<[string, unknown, FormulaComponent[]]>([
    ['a single meter', [meter()], [{ type: 'meter', meterId: A }]],
    [
      'meter - aggregation + meter',
      [meter(A), minus, localProducer, plus, meter(B)],
      [
        { type: 'meter', meterId: A },
        { type: 'arithmetic', arithmetic: 'subtraction' },
        { type: 'aggregation', aggregation: 'sum_local_producer', customerId: null },
        { type: 'arithmetic', arithmetic: 'addition' },
        { type: 'meter', meterId: B },
      ],
    ],
    [
      'sum_customer_consumers with a customerId',
      [{ type: 'aggregation', aggregation: 'sum_customer_consumers', customerId: C }],
      [{ type: 'aggregation', aggregation: 'sum_customer_consumers', customerId: C }],
    ],
    [
      'another aggregation with an explicit null customerId',
      [{ ...localProducer, customerId: null }],
      [{ type: 'aggregation', aggregation: 'sum_local_producer', customerId: null }],
    ],
  ])('accepts %s', (_name, input, formula) => {
    expect(parseFormula(input)).toEqual({ ok: true, formula });
  });

  it.each<[string, unknown, [string, string][]]>([
    ['a string', 'meter', [['formula', 'formula_not_array']]],
    ['an object', { 0: meter() }, [['formula', 'formula_not_array']]],
    ['null', null, [['formula', 'formula_not_array']]],
    ['an empty array', [], [['formula', 'formula_empty']]],
    ['a number component', [42], [['formula[0]', 'formula_component_invalid']]],
    ['a null component', [null], [['formula[0]', 'formula_component_invalid']]],
    ['an array component', [[meter()]], [['formula[0]', 'formula_component_invalid']]],
    ['a component without type', [{ meterId: A }], [['formula[0]', 'formula_component_invalid']]],
    ['a component of unknown type', [{ type: 'constant' }], [['formula[0]', 'formula_component_invalid']]],
    ['an unknown field', [{ ...meter(), scale: 2 }], [['formula[0].scale', 'unknown_field']]],
    [
      'a meter field on an aggregation',
      [{ ...localProducer, meterId: A }],
      [['formula[0].meterId', 'unknown_field']],
    ],
    ['a missing meterId', [{ type: 'meter' }], [['formula[0].meterId', 'formula_meter_id_invalid']]],
    ['a non-uuid meterId', [meter('meter-1')], [['formula[0].meterId', 'formula_meter_id_invalid']]],
    ['a numeric meterId', [meter(7)], [['formula[0].meterId', 'formula_meter_id_invalid']]],
    [
      'an unknown aggregation',
      [{ type: 'aggregation', aggregation: 'sum_everything' }],
      [['formula[0].aggregation', 'formula_aggregation_invalid']],
    ],
    [
      'a missing aggregation',
      [{ type: 'aggregation' }],
      [['formula[0].aggregation', 'formula_aggregation_invalid']],
    ],
    [
      'sum_customer_consumers without customerId',
      [{ type: 'aggregation', aggregation: 'sum_customer_consumers' }],
      [['formula[0].customerId', 'formula_customer_required']],
    ],
    [
      'sum_customer_consumers with a null customerId',
      [{ type: 'aggregation', aggregation: 'sum_customer_consumers', customerId: null }],
      [['formula[0].customerId', 'formula_customer_required']],
    ],
    [
      'sum_customer_consumers with a non-uuid customerId',
      [{ type: 'aggregation', aggregation: 'sum_customer_consumers', customerId: 'acme' }],
      [['formula[0].customerId', 'formula_customer_required']],
    ],
    [
      'a customerId on another aggregation',
      [{ ...localProducer, customerId: C }],
      [['formula[0].customerId', 'formula_customer_not_allowed']],
    ],
    [
      'an unknown arithmetic',
      [meter(), { type: 'arithmetic', arithmetic: 'multiplication' }, meter()],
      [['formula[1].arithmetic', 'formula_arithmetic_invalid']],
    ],
    ['two meters in a row', [meter(A), meter(B)], [['formula[1]', 'formula_operator_expected']]],
    ['an aggregation after a meter', [meter(), localProducer], [['formula[1]', 'formula_operator_expected']]],
    ['a leading arithmetic', [minus, meter()], [['formula[0]', 'formula_operand_expected']]],
    ['two arithmetics in a row', [meter(), plus, minus, meter()], [['formula[2]', 'formula_operand_expected']]],
    ['a trailing arithmetic', [meter(), plus], [['formula[1]', 'formula_trailing_arithmetic']]],
    ['a lone arithmetic (reported once)', [plus], [['formula[0]', 'formula_operand_expected']]],
    [
      'a field error followed by a sequence error',
      [meter('x'), meter(B)],
      [
        ['formula[0].meterId', 'formula_meter_id_invalid'],
        ['formula[1]', 'formula_operator_expected'],
      ],
    ],
    [
      'an unrecognised component (no cascading sequence errors)',
      [meter(), { type: 'constant' }, meter()],
      [['formula[1]', 'formula_component_invalid']],
    ],
    [
      'several violations at once',
      [plus, { ...meter('x'), extra: true }, localProducer, minus],
      [
        ['formula[0]', 'formula_operand_expected'],
        ['formula[1].extra', 'unknown_field'],
        ['formula[1].meterId', 'formula_meter_id_invalid'],
        ['formula[2]', 'formula_operator_expected'],
        ['formula[3]', 'formula_trailing_arithmetic'],
      ],
    ],
  ])('rejects %s', (_name, input, expected) => {
    expect(errorsOf(input)).toEqual(expected);
  });
});

const operand = fc.oneof(
  fc.uuid().map((meterId) => ({ type: 'meter', meterId })),
  fc.uuid().map((customerId) => ({ type: 'aggregation', aggregation: 'sum_customer_consumers', customerId })),
  fc
    .tuple(
      fc.constantFrom(...AGGREGATIONS.filter((a) => a !== 'sum_customer_consumers')),
      fc.constantFrom(undefined, null),
    )
    .map(([aggregation, customerId]) =>
      customerId === undefined ? { type: 'aggregation', aggregation } : { type: 'aggregation', aggregation, customerId },
    ),
);
const arithmetic = fc.constantFrom(...ARITHMETICS).map((a) => ({ type: 'arithmetic', arithmetic: a }));
const wellFormed = fc
  .tuple(operand, fc.array(fc.tuple(arithmetic, operand), { maxLength: 8 }))
  .map(([first, rest]) => [first, ...rest.flat()] as Record<string, unknown>[]);

describe('parseFormula properties', () => {
  it('parses every well-formed alternating sequence and round-trips it', () => {
    fc.assert(
      fc.property(wellFormed, (input) => {
        const normalized = input.map((c) => (c.type === 'aggregation' ? { ...c, customerId: c.customerId ?? null } : c));
        expect(parseFormula(input)).toEqual({ ok: true, formula: normalized });
      }),
    );
  });

  it('reports formula_operator_expected for an operand inserted directly after an operand', () => {
    fc.assert(
      fc.property(wellFormed, operand, fc.nat(), (input, extra, pick) => {
        const at = 2 * (pick % Math.ceil(input.length / 2)) + 1; // operands sit at even indices
        const broken = [...input.slice(0, at), extra, ...input.slice(at)];
        expect(errorsOf(broken)).toEqual([[`formula[${at}]`, 'formula_operator_expected']]);
      }),
    );
  });

  it('reports formula_trailing_arithmetic when an arithmetic is appended', () => {
    fc.assert(
      fc.property(wellFormed, arithmetic, (input, op) => {
        expect(errorsOf([...input, op])).toEqual([[`formula[${input.length}]`, 'formula_trailing_arithmetic']]);
      }),
    );
  });
});

describe('referenced ids', () => {
  const formula: FormulaComponent[] = [
    { type: 'meter', meterId: B },
    { type: 'arithmetic', arithmetic: 'addition' },
    { type: 'aggregation', aggregation: 'sum_customer_consumers', customerId: C },
    { type: 'arithmetic', arithmetic: 'subtraction' },
    { type: 'meter', meterId: A },
    { type: 'arithmetic', arithmetic: 'addition' },
    { type: 'meter', meterId: B },
    { type: 'arithmetic', arithmetic: 'addition' },
    { type: 'aggregation', aggregation: 'sum_local_consumer', customerId: null },
    { type: 'arithmetic', arithmetic: 'addition' },
    { type: 'aggregation', aggregation: 'sum_customer_consumers', customerId: C },
  ];

  it('lists distinct meter ids in order of first appearance', () => {
    expect(referencedMeterIds(formula)).toEqual([B, A]);
  });

  it('lists distinct customer ids', () => {
    expect(referencedCustomerIds(formula)).toEqual([C]);
  });
});

describe('findCycle', () => {
  const graph = (edges: Record<string, string[]>) => (id: string) => edges[id] ?? [];

  it.each<[string, Record<string, string[]>, string, string[] | null]>([
    ['a physical meter', {}, 'a', null],
    ['a chain', { a: ['b'], b: ['c'] }, 'a', null],
    ['a diamond', { a: ['b', 'c'], b: ['d'], c: ['d'] }, 'a', null],
    ['a self reference', { a: ['a'] }, 'a', ['a', 'a']],
    ['a two-meter cycle', { a: ['b'], b: ['a'] }, 'a', ['a', 'b', 'a']],
    ['a cycle behind start', { a: ['b'], b: ['c'], c: ['b'] }, 'a', ['b', 'c', 'b']],
  ])('handles %s', (_name, edges, start, expected) => {
    expect(findCycle(start, graph(edges))).toEqual(expected);
  });

  const dag = fc.integer({ min: 1, max: 10 }).chain((n) =>
    fc.tuple(
      fc.constant(n),
      fc.array(fc.array(fc.boolean(), { minLength: n, maxLength: n }), { minLength: n, maxLength: n }),
      fc.nat({ max: n - 1 }),
      fc.nat(),
    ),
  );

  it('finds no cycle in a DAG, and finds one once a reachable meter references start', () => {
    fc.assert(
      fc.property(dag, ([n, matrix, startIndex, pick]) => {
        const edges = new Map<string, string[]>();
        for (let i = 0; i < n; i++) {
          edges.set(`m${i}`, [...Array(n).keys()].filter((j) => j > i && matrix[i]![j]).map((j) => `m${j}`));
        }
        const references = (id: string) => edges.get(id) ?? [];
        const start = `m${startIndex}`;
        expect(findCycle(start, references)).toBeNull();

        const reachable = [start];
        for (const id of reachable) {
          for (const next of references(id)) if (!reachable.includes(next)) reachable.push(next);
        }
        references(reachable[pick % reachable.length]!).push(start);
        const cycle = findCycle(start, references);
        expect(cycle).not.toBeNull();
        expect(cycle!.length).toBeGreaterThanOrEqual(2);
        expect(cycle![0]).toBe(cycle!.at(-1));
        for (let k = 1; k < cycle!.length; k++) expect(references(cycle![k - 1]!)).toContain(cycle![k]);
      }),
    );
  });
});
