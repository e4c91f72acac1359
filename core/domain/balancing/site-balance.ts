import type { EnergySeries } from '../measurements/aggregation.js';
import type { Direction } from '../meters/meter.js';
import type { Bucket } from '../time/buckets.js';
import { allocate, allocationFor, eachLocalFlow, prepareParticipants, type Allocation, type AllocationKey, type Participants } from './allocation.js';

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

/** The flows of one kind from one creditor to one debitor over a balance's buckets. */
export interface FlowSeries {
  kind: FlowKind;
  debitorId: string | null;
  creditorId: string | null;
  /** Wh per bucket (same order as the buckets), NaN where nothing flowed. */
  wh: Float64Array;
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
  energy: ReadonlyMap<string, EnergySeries>;
  gridMeterId: string | null;
}

/**
 * The result of balancing buckets: a series per kind, debitor and creditor (a value per bucket
 * rather than an object per flow: a site-year has millions of flows), and the interval states.
 */
export class SiteBalance {
  constructor(
    readonly buckets: readonly Bucket[],
    /** Local, grid, then feed-in series, each by debitor, then creditor id. */
    readonly series: readonly FlowSeries[],
    readonly states: readonly IntervalState[],
  ) {}

  /** Every flow as an object, interval by interval in series order. */
  get flows(): Flow[] {
    const flows: Flow[] = [];
    this.buckets.forEach((bucket, i) => {
      for (const { kind, debitorId, creditorId, wh } of this.series) {
        if (!Number.isNaN(wh[i])) flows.push({ at: bucket.start, kind, debitorId, creditorId, wh: wh[i]! });
      }
    });
    return flows;
  }
}

/**
 * Balances every interval of a site: who takes part is decided per interval from the settings,
 * an interval with any participant's energy missing is reported and left unbalanced, the rest is
 * shared by `allocate` under the key in force at the interval's start and returned as flow series.
 */
export function balanceSite(input: SiteBalanceInput): SiteBalance {
  const book = new SeriesBook(input.buckets.length);
  const states: IntervalState[] = [];
  let run: Run | undefined;
  input.buckets.forEach((bucket, index) => {
    if (!run || bucket.start < run.from || bucket.start >= run.to) run = startRun(bucket.start, input, book);
    const known = gather(run, index);
    // No data at all yet is not an incomplete interval, just one not to balance (yet).
    if (known === 'none') return;
    states.push({ at: bucket.start, balanced: known === 'all' });
    if (known === 'all') balanceInterval(run, index, input.rotation(bucket), input.keyAt(bucket.start));
  });
  return new SiteBalance(input.buckets, book.sorted(), states);
}

/** The intervals of a balance starting at `starts` taken out: no flows, no state. */
export function withoutIntervals(balance: SiteBalance, starts: ReadonlySet<number>): SiteBalance {
  const taken = balance.buckets.flatMap((bucket, i) => (starts.has(bucket.start) ? [i] : []));
  if (taken.length === 0) return balance;
  const series = balance.series.map((s) => {
    const wh = s.wh.slice();
    for (const i of taken) wh[i] = NaN;
    return { ...s, wh };
  });
  return new SiteBalance(balance.buckets, series, balance.states.filter((state) => !starts.has(state.at)));
}

/** The intervals between two changes of the participants: prepared once, with the series they write. */
interface Run {
  /** Where the participants change: the run holds for intervals starting in [from, to). */
  from: number;
  to: number;
  participants: Participants;
  into: Allocation;
  producerEnergies: (EnergySeries | undefined)[];
  consumerEnergies: (EnergySeries | undefined)[];
  /** The interval's energies, as far as `gather` found them complete. */
  production: Float64Array;
  demand: Float64Array;
  grid: FlowSeries[];
  feedIn: FlowSeries[];
  /** Per consumer and producer (consumer × producers + producer), created at the first flow. */
  local: (FlowSeries | undefined)[];
  book: SeriesBook;
}

function startRun(instant: number, input: SiteBalanceInput, book: SeriesBook): Run {
  let [from, to] = [-Infinity, Infinity];
  for (const edge of input.participations.flatMap((p) => (p.to === null ? [p.from] : [p.from, p.to]))) {
    if (edge <= instant) from = Math.max(from, edge);
    else to = Math.min(to, edge);
  }
  const active = input.participations.filter((p) => p.from <= instant && (p.to === null || p.to > instant));
  const producers = active.filter((p) => p.direction === 'producer');
  const consumers = active.filter((p) => p.direction !== 'producer');
  const participants = prepareParticipants(producers, consumers);
  const grid = input.gridMeterId;
  return {
    from,
    to,
    participants,
    into: allocationFor(participants),
    producerEnergies: Array.from(participants.producerInputs, (i) => input.energy.get(producers[i]!.meterId)),
    consumerEnergies: Array.from(participants.consumerInputs, (i) => input.energy.get(consumers[i]!.meterId)),
    production: new Float64Array(producers.length),
    demand: new Float64Array(consumers.length),
    grid: participants.consumerIds.map((id) => book.series('grid', id, grid)),
    feedIn: participants.producerIds.map((id) => book.series('feed_in', grid, id)),
    local: new Array(consumers.length * producers.length),
    book,
  };
}

/** Reads the interval's production and demand into the run; says whose energy is complete. */
function gather(run: Run, index: number): 'none' | 'some' | 'all' {
  let some = false;
  let all = true;
  const read = (energies: Run['producerEnergies'], into: Float64Array) => {
    for (let i = 0; i < energies.length; i++) {
      const energy = energies[i];
      if (energy?.complete[index] === 1) {
        some = true;
        into[i] = energy.wh[index]!;
      } else all = false;
    }
  };
  read(run.producerEnergies, run.production);
  read(run.consumerEnergies, run.demand);
  return some ? (all ? 'all' : 'some') : 'none';
}

function balanceInterval(run: Run, index: number, rotation: number, key: AllocationKey): void {
  const { participants, into, production, demand } = run;
  allocate(participants, key, rotation, production, demand, into);
  const producers = participants.producerIds.length;
  eachLocalFlow(participants, into, (c, p, wh) => {
    const series = (run.local[c * producers + p] ??= run.book.series('local', participants.consumerIds[c]!, participants.producerIds[p]!));
    series.wh[index] = wh;
  });
  for (let c = 0; c < demand.length; c++) if (demand[c]! > into.local[c]!) run.grid[c]!.wh[index] = demand[c]! - into.local[c]!;
  for (let p = 0; p < production.length; p++) if (production[p]! > into.supplied[p]!) run.feedIn[p]!.wh[index] = production[p]! - into.supplied[p]!;
}

/** The series of a balance by kind, debitor and creditor, each created on first use. */
class SeriesBook {
  private readonly byKey = new Map<string, FlowSeries>();

  constructor(private readonly length: number) {}

  series(kind: FlowKind, debitorId: string | null, creditorId: string | null): FlowSeries {
    const key = JSON.stringify([kind, debitorId, creditorId]);
    let series = this.byKey.get(key);
    if (!series) this.byKey.set(key, (series = { kind, debitorId, creditorId, wh: new Float64Array(this.length).fill(NaN) }));
    return series;
  }

  /** Local, grid, feed-in; each by debitor, then creditor: the order of an interval's flows. */
  sorted(): FlowSeries[] {
    const compare = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);
    return [...this.byKey.values()].sort((a, b) => FLOW_KINDS.indexOf(a.kind) - FLOW_KINDS.indexOf(b.kind) || compare(a.debitorId, b.debitorId) || compare(a.creditorId, b.creditorId));
  }
}
