import type { Participation } from '../balancing/site-balance.js';
import type { EnergySeries } from '../measurements/aggregation.js';
import type { Bucket } from '../time/buckets.js';
import type { Aggregation, FormulaComponent } from './formula.js';
import { evaluateFormula, evaluationOrder } from './formula-evaluation.js';
import type { Direction } from './meter.js';

export interface SiteMeter {
  id: string;
  direction: Direction;
  startDate: number;
  formula: FormulaComponent[] | null;
}

/** A consumer meter on a contract of a customer, over [from, to). */
export interface CustomerMeter {
  customerId: string;
  meterId: string;
  from: number;
  to: number | null;
}

export interface VirtualValue {
  meterId: string;
  at: number;
  wh: number;
}

const activeAt = (period: { from: number; to: number | null }, at: number) => period.from <= at && (period.to === null || period.to > at);

/**
 * The values of a site's virtual meters per bucket, from the physical meters' energy. Aggregations
 * count the physical meters active in each interval; a bucket where an operand
 * has no value gets no value.
 */
export function virtualValues(
  buckets: readonly Bucket[],
  meters: readonly SiteMeter[],
  energy: ReadonlyMap<string, EnergySeries>,
  participations: readonly Participation[],
  customerMeters: readonly CustomerMeter[],
): VirtualValue[] {
  const formulas = new Map(meters.flatMap((m) => (m.formula ? [[m.id, m.formula] as const] : [])));
  const order = evaluationOrder(formulas);
  const physical = meters.filter((m) => !m.formula);
  const values: VirtualValue[] = [];
  buckets.forEach((bucket, index) => {
    const at = bucket.start;
    const computed = new Map<string, number | undefined>();
    const members = (aggregation: Aggregation, customerId: string | null): string[] => {
      const started = physical.filter((m) => m.startDate <= at);
      const participating = (m: SiteMeter) => participations.some((p) => p.meterId === m.id && activeAt(p, at));
      switch (aggregation) {
        case 'sum_local_producer':
          return started.filter((m) => m.direction === 'producer').map((m) => m.id);
        case 'sum_local_consumer':
          return started.filter((m) => m.direction === 'consumer').map((m) => m.id);
        case 'sum_local_participant_producer':
          return started.filter((m) => m.direction === 'producer' && participating(m)).map((m) => m.id);
        case 'sum_local_participant_consumer':
          return started.filter((m) => m.direction === 'consumer' && participating(m)).map((m) => m.id);
        case 'sum_customer_consumers':
          return started
            .filter((m) => m.direction === 'consumer' && customerMeters.some((c) => c.customerId === customerId && c.meterId === m.id && activeAt(c, at)))
            .map((m) => m.id);
      }
    };
    const measured = (id: string) => {
      const series = energy.get(id);
      return series?.complete[index] === 1 ? series.wh[index] : undefined;
    };
    const source = {
      energy: (id: string) => (computed.has(id) ? computed.get(id) : measured(id)),
      members,
    };
    for (const id of order) {
      const value = evaluateFormula(formulas.get(id)!, source);
      computed.set(id, value);
      if (value !== undefined) values.push({ meterId: id, at, wh: value });
    }
  });
  return values;
}
