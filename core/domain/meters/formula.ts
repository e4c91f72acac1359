import { isUuid } from '../ids.js';
export const AGGREGATIONS = [
  'sum_local_producer',
  'sum_local_consumer',
  'sum_local_participant_producer',
  'sum_local_participant_consumer',
  'sum_customer_consumers',
] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export const ARITHMETICS = ['addition', 'subtraction'] as const;
export type Arithmetic = (typeof ARITHMETICS)[number];

export type FormulaComponent =
  | { type: 'meter'; meterId: string }
  | { type: 'aggregation'; aggregation: Aggregation; customerId: string | null }
  | { type: 'arithmetic'; arithmetic: Arithmetic };

export interface FormulaError {
  path: string;
  code: string;
  message: string;
}

export type FormulaResult = { ok: true; formula: FormulaComponent[] } | { ok: false; errors: FormulaError[] };

const COMPONENT_TYPES = ['meter', 'aggregation', 'arithmetic'] as const;

const ALLOWED_KEYS: Record<FormulaComponent['type'], readonly string[]> = {
  meter: ['type', 'meterId'],
  aggregation: ['type', 'aggregation', 'customerId'],
  arithmetic: ['type', 'arithmetic'],
};

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function includes<T extends string>(values: readonly T[], value: unknown): value is T {
  return (values as readonly unknown[]).includes(value);
}

/** Validates one component; returns null when its fields are invalid (errors are pushed). */
function parseComponent(
  raw: Record<string, unknown>,
  type: FormulaComponent['type'],
  at: string,
  errors: FormulaError[],
): FormulaComponent | null {
  const before = errors.length;
  const fail = (field: string, code: string, message: string) => errors.push({ path: `${at}.${field}`, code, message });
  for (const key of Object.keys(raw)) {
    if (!ALLOWED_KEYS[type].includes(key)) fail(key, 'unknown_field', `Unknown field "${key}" on a ${type} component.`);
  }
  let component: FormulaComponent | null = null;
  if (type === 'meter') {
    if (isUuid(raw.meterId)) component = { type, meterId: raw.meterId };
    else fail('meterId', 'formula_meter_id_invalid', 'A meter component needs a meterId that is a UUID.');
  } else if (type === 'arithmetic') {
    if (includes(ARITHMETICS, raw.arithmetic)) component = { type, arithmetic: raw.arithmetic };
    else fail('arithmetic', 'formula_arithmetic_invalid', `Arithmetic must be one of ${ARITHMETICS.join(', ')}.`);
  } else if (!includes(AGGREGATIONS, raw.aggregation)) {
    fail('aggregation', 'formula_aggregation_invalid', `Aggregation must be one of ${AGGREGATIONS.join(', ')}.`);
  } else if (raw.aggregation === 'sum_customer_consumers') {
    if (isUuid(raw.customerId)) component = { type, aggregation: raw.aggregation, customerId: raw.customerId };
    else fail('customerId', 'formula_customer_required', 'sum_customer_consumers needs a customerId that is a UUID.');
  } else if (raw.customerId === undefined || raw.customerId === null) {
    component = { type, aggregation: raw.aggregation, customerId: null };
  } else {
    fail('customerId', 'formula_customer_not_allowed', 'customerId is only allowed with sum_customer_consumers.');
  }
  return errors.length === before ? component : null;
}

export function parseFormula(input: unknown): FormulaResult {
  const error = (path: string, code: string, message: string): FormulaError => ({ path, code, message });
  if (!Array.isArray(input)) {
    return { ok: false, errors: [error('formula', 'formula_not_array', 'Formula must be an array.')] };
  }
  if (input.length === 0) {
    return { ok: false, errors: [error('formula', 'formula_empty', 'Formula must not be empty.')] };
  }
  const errors: FormulaError[] = [];
  const formula: FormulaComponent[] = [];
  const lastIndex = input.length - 1;
  // After an unrecognised component either kind may follow, so it does not cascade into sequence errors.
  let wanted: 'operand' | 'operator' | 'any' = 'operand';
  let trailingReported = false;
  input.forEach((raw: unknown, i) => {
    const at = `formula[${i}]`;
    const type = isObject(raw) ? raw.type : undefined;
    if (!isObject(raw) || !includes(COMPONENT_TYPES, type)) {
      errors.push(error(at, 'formula_component_invalid', 'Component must be an object with a known type.'));
      wanted = 'any';
      return;
    }
    const isOperator = type === 'arithmetic';
    if (!isOperator && wanted === 'operator') {
      errors.push(error(at, 'formula_operator_expected', 'An arithmetic component is expected between operands.'));
    } else if (isOperator && wanted === 'operand') {
      errors.push(error(at, 'formula_operand_expected', 'A meter or aggregation component is expected here.'));
      // An out-of-place operator at the end is one violation, not also a trailing one.
      trailingReported = i === lastIndex;
    }
    wanted = isOperator ? 'operand' : 'operator';
    const component = parseComponent(raw, type, at, errors);
    if (component) formula.push(component);
  });
  const last: unknown = input[lastIndex];
  if (!trailingReported && isObject(last) && last.type === 'arithmetic') {
    const message = 'Formula must not end with an arithmetic component.';
    errors.push(error(`formula[${lastIndex}]`, 'formula_trailing_arithmetic', message));
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, formula };
}

export function referencedMeterIds(formula: FormulaComponent[]): string[] {
  return [...new Set(formula.flatMap((c) => (c.type === 'meter' ? [c.meterId] : [])))];
}

export function referencedCustomerIds(formula: FormulaComponent[]): string[] {
  const ids = formula.flatMap((c) => (c.type === 'aggregation' && c.customerId !== null ? [c.customerId] : []));
  return [...new Set(ids)];
}

/**
 * Returns the ids of a cycle (e.g. [a, b, a]) if following virtual-meter references from `start` comes back to
 * `start` or any meter already on the path, else null. `references(id)` gives the meter ids a virtual meter's
 * formula references (empty for physical meters).
 */
export function findCycle(start: string, references: (meterId: string) => readonly string[]): string[] | null {
  const path: string[] = [];
  const onPath = new Set<string>();
  // Meters whose references were fully explored without a cycle; revisiting them cannot find one.
  const done = new Set<string>();
  const visit = (id: string): string[] | null => {
    if (onPath.has(id)) return [...path.slice(path.indexOf(id)), id];
    if (done.has(id)) return null;
    path.push(id);
    onPath.add(id);
    for (const next of references(id)) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    onPath.delete(id);
    done.add(id);
    return null;
  };
  return visit(start);
}
