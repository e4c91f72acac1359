import type { BucketEnergy } from '../measurements/aggregation.js';
import type { Direction } from '../meters/meter.js';
import type { Bucket } from '../time/buckets.js';
import { allocateInterval, type AllocationKey, type ConsumerInput, type ProducerInput } from './allocation.js';

export const FLOW_KINDS = ['local', 'grid', 'feed_in'] as const;
export type FlowKind = (typeof FLOW_KINDS)[number];

/** A participation of a meter, as instants: active over [from, to). */
export interface Participation {
  meterId: string;
  direction: Direction;
  priority: number | null;
  /** Share under the static key, in millionths (SHARE_SCALE); null counts as 0. */
  shareMicros: number | null;
  from: number;
  to: number | null;
}

export interface Flow {
  /** Start of the balanced interval (quarter hour or month). */
  at: number;
  kind: FlowKind;
  /** Consumer; for feed-in the grid meter (null when the site has none). */
  debitorId: string | null;
  /** Producer; for grid supply the grid meter (null when the site has none). */
  creditorId: string | null;
  wh: number;
}

/** Intervals without any participant's data have no state: nothing to balance yet. */
export interface IntervalState {
  at: number;
  /** False: some participant's energy is missing, so nothing was balanced (incomplete). */
  balanced: boolean;
}

export interface SiteBalanceInput {
  buckets: readonly Bucket[];
  rotation(bucket: Bucket): number;
  /** The allocation key in force at an instant; asked for each bucket's start. */
  keyAt(instant: number): AllocationKey;
  participations: readonly Participation[];
  /** Per meter, its energy per bucket (same order as `buckets`). */
  energy: ReadonlyMap<string, readonly BucketEnergy[]>;
  gridMeterId: string | null;
}

/**
 * Balances every interval of a site: who takes part is decided per interval from the settings,
 * an interval with any participant's energy missing is reported and left unbalanced, the rest is
 * shared by allocateInterval under the key in force at the interval's start and returned as flows.
 */
export function balanceSite(input: SiteBalanceInput): { flows: Flow[]; states: IntervalState[] } {
  const flows: Flow[] = [];
  const states: IntervalState[] = [];
  input.buckets.forEach((bucket, index) => {
    const active = input.participations.filter((p) => p.from <= bucket.start && (p.to === null || p.to > bucket.start));
    if (active.length === 0) return;
    const energies = active.map((participant) => input.energy.get(participant.meterId)?.[index]);
    // No data at all yet is not an incomplete interval, just one not to balance (yet).
    if (energies.every((energy) => !energy?.complete)) return;
    if (energies.some((energy) => !energy?.complete)) {
      states.push({ at: bucket.start, balanced: false });
      return;
    }
    const producers: ProducerInput[] = [];
    const consumers: ConsumerInput[] = [];
    active.forEach((participant, i) => {
      const { wh } = energies[i]!;
      if (participant.direction === 'producer') producers.push({ meterId: participant.meterId, wh });
      else consumers.push({ meterId: participant.meterId, wh, priority: participant.priority, shareMicros: participant.shareMicros });
    });
    states.push({ at: bucket.start, balanced: true });
    const allocation = allocateInterval({ rotation: input.rotation(bucket), key: input.keyAt(bucket.start), producers, consumers });
    const at = bucket.start;
    for (const flow of allocation.local) flows.push({ at, kind: 'local', debitorId: flow.consumerId, creditorId: flow.producerId, wh: flow.wh });
    for (const flow of allocation.grid) flows.push({ at, kind: 'grid', debitorId: flow.consumerId, creditorId: input.gridMeterId, wh: flow.wh });
    for (const flow of allocation.feedIn) flows.push({ at, kind: 'feed_in', debitorId: input.gridMeterId, creditorId: flow.producerId, wh: flow.wh });
  });
  return { flows, states };
}
