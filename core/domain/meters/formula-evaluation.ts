import type { Aggregation, FormulaComponent } from './formula.js';

export interface OperandSource {
  /** A meter's energy in the interval (Wh); undefined when it is missing. */
  energy(meterId: string): number | undefined;
  /** The meters an aggregation covers in the interval. */
  members(aggregation: Aggregation, customerId: string | null): readonly string[];
}

/**
 * A virtual meter's value in one interval: the operands evaluated left to right with their
 * arithmetic. Undefined when any operand (or any member of an aggregation) has no value, so a
 * computed series never silently misses a part. May be negative (e.g. a grid balance).
 */
export function evaluateFormula(formula: readonly FormulaComponent[], source: OperandSource): number | undefined {
  let total = 0;
  let sign = 1;
  for (const component of formula) {
    if (component.type === 'arithmetic') {
      sign = component.arithmetic === 'addition' ? 1 : -1;
      continue;
    }
    const ids = component.type === 'meter' ? [component.meterId] : source.members(component.aggregation, component.customerId);
    for (const id of ids) {
      const value = source.energy(id);
      if (value === undefined) return undefined;
      total += sign * value;
    }
  }
  return total;
}

/** Virtual meters ordered so that each comes after the virtual meters its formula names. */
export function evaluationOrder(formulas: ReadonlyMap<string, readonly FormulaComponent[]>): string[] {
  const order: string[] = [];
  const done = new Set<string>();
  const visit = (id: string) => {
    if (done.has(id)) return;
    done.add(id);
    for (const component of formulas.get(id) ?? []) if (component.type === 'meter' && formulas.has(component.meterId)) visit(component.meterId);
    order.push(id);
  };
  [...formulas.keys()].sort().forEach(visit);
  return order;
}
