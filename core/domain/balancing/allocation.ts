/**
 * How an interval's supply is shared among its consumers (shared building supply under §42b EnWG,
 * energy communities): `priority` serves tiers in turn, `static` gives each consumer a fixed share,
 * `dynamic` splits in proportion to demand.
 */
export const ALLOCATION_KEYS = ['priority', 'static', 'dynamic'] as const;
export type AllocationKey = (typeof ALLOCATION_KEYS)[number];

/** Static shares are decimals with up to 6 places, held as integer millionths. */
export const SHARE_SCALE = 1_000_000;

/** Production in the interval, integer Wh >= 0. */
export interface ProducerInput {
  meterId: string;
  wh: number;
}

/** Demand in the interval, integer Wh >= 0. */
export interface ConsumerInput {
  meterId: string;
  wh: number;
  /** Priority key: lower values are served first; null forms the last tier. */
  priority: number | null;
  /** static key: share in millionths; null counts as 0 */
  shareMicros: number | null;
}

export interface IntervalInput {
  /** Rotation index for tie-breaks, e.g. floor(intervalStartUnixMs / 900000), or months since 1970-01 on monthly sites. */
  rotation: number;
  key: AllocationKey;
  producers: ProducerInput[];
  consumers: ConsumerInput[];
}

export interface LocalFlow {
  producerId: string;
  consumerId: string;
  wh: number;
}

export interface IntervalAllocation {
  /** Only flows with wh > 0, sorted by consumerId then producerId. */
  local: LocalFlow[];
  /** Unmet demand per consumer, only wh > 0, sorted by consumerId. */
  grid: Array<{ consumerId: string; wh: number }>;
  /** Unallocated production per producer, only wh > 0, sorted by producerId. */
  feedIn: Array<{ producerId: string; wh: number }>;
}

/**
 * The participants of a run of intervals, prepared once for all of them: each side in meter-id
 * order (stable), which every tie-break follows, so the rules below work on indices into it.
 */
export interface Participants {
  producerIds: readonly string[];
  consumerIds: readonly string[];
  /** Priority tiers in serving order, each a list of consumer indices in meter-id order. */
  tiers: readonly Int32Array[];
  /** Static shares in millionths per consumer (null as 0), unchecked: only the static key checks them. */
  shareMicros: Float64Array;
  /** Position of each producer and consumer (by index) among those given. */
  producerInputs: Int32Array;
  consumerInputs: Int32Array;
  /** Consumers with equal meter ids share a group; otherwise a consumer's group is its index. */
  idGroups: Int32Array;
  /** The consumer indices in the order the consumers were given: the checks and sums run in it. */
  given: Int32Array;
}

/** Per-interval results on prepared participants, reused from interval to interval. */
export interface Allocation {
  /** Local energy per consumer (index order). */
  local: Float64Array;
  /** Local energy attributed to each producer (index order). */
  supplied: Float64Array;
  /** Scratch of the rules. */
  remainders: Float64Array;
  order: Int32Array;
}

/** Sorts each side by meter id and groups the consumers into priority tiers. */
export function prepareParticipants(producers: readonly { meterId: string }[], consumers: readonly Omit<ConsumerInput, 'wh'>[]): Participants {
  const producerOrder = idOrder(producers);
  const consumerOrder = idOrder(consumers);
  const indexOf = new Int32Array(consumers.length);
  consumerOrder.forEach((given, index) => (indexOf[given] = index));
  const tiers = new Map<number | null, number[]>();
  for (const [given, consumer] of consumers.entries()) {
    const tier = tiers.get(consumer.priority);
    if (tier) tier.push(indexOf[given]!);
    else tiers.set(consumer.priority, [indexOf[given]!]);
  }
  const order = [...tiers.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b));
  const idGroups = new Int32Array(consumers.length);
  consumerOrder.forEach((given, index) => {
    const previous = consumerOrder[index - 1];
    idGroups[index] = previous !== undefined && consumers[previous]!.meterId === consumers[given]!.meterId ? idGroups[index - 1]! : index;
  });
  return {
    producerIds: producerOrder.map((i) => producers[i]!.meterId),
    consumerIds: consumerOrder.map((i) => consumers[i]!.meterId),
    tiers: order.map((priority) => Int32Array.from(tiers.get(priority)!).sort()),
    shareMicros: Float64Array.from(consumerOrder, (i) => consumers[i]!.shareMicros ?? 0),
    producerInputs: Int32Array.from(producerOrder),
    consumerInputs: Int32Array.from(consumerOrder),
    idGroups,
    given: indexOf,
  };
}

/** The buffers `allocate` fills for these participants. */
export function allocationFor(participants: Participants): Allocation {
  const size = Math.max(participants.producerIds.length, participants.consumerIds.length);
  return {
    local: new Float64Array(participants.consumerIds.length),
    supplied: new Float64Array(participants.producerIds.length),
    remainders: new Float64Array(size),
    order: new Int32Array(size),
  };
}

/**
 * Shares an interval's supply among the prepared consumers by its key (step 1, `local`) and
 * attributes it to the producers in proportion to their production (step 2, `supplied`).
 * `production` and `demand` are in index order.
 */
export function allocate(participants: Participants, key: AllocationKey, rotation: number, production: ArrayLike<number>, demand: ArrayLike<number>, into: Allocation): void {
  let supply = 0;
  for (let p = 0; p < participants.producerIds.length; p++) supply += checkWh(production[p]!, 'production');
  checkWh(supply, 'supply');
  if (key === 'priority') priorityParts(participants, supply, demand, rotation, into);
  else if (key === 'static') staticParts(participants, supply, demand, rotation, into);
  else dynamicParts(participants, supply, demand, rotation, into);
  let local = 0;
  for (let c = 0; c < participants.consumerIds.length; c++) local += into.local[c]!;
  splitInto(local, production, participants.producerIds.length, rotation, into.supplied, into);
}

/**
 * Walks the north-west corner rule over an allocation: consumers draw from the producers' shares
 * in meter-id order. Calls `flow` for each local flow above 0, by consumer then producer.
 */
export function eachLocalFlow(participants: Participants, into: Allocation, flow: (consumer: number, producer: number, wh: number) => void): void {
  const left = into.remainders;
  left.set(into.supplied);
  let p = 0;
  for (let c = 0; c < participants.consumerIds.length; c++) {
    let need = into.local[c]!;
    while (need > 0) {
      const wh = Math.min(need, left[p]!);
      if (wh > 0) flow(c, p, wh);
      need -= wh;
      left[p]! -= wh;
      if (left[p] === 0) p++;
    }
  }
}

/** Shares the interval's local production among its consumers by its key and attributes it to producers. */
export function allocateInterval(input: IntervalInput): IntervalAllocation {
  const participants = prepareParticipants(input.producers, input.consumers);
  const into = allocationFor(participants);
  const [production, demand] = [sortedValues(input.producers), sortedValues(input.consumers)];
  allocate(participants, input.key, input.rotation, production, demand, into);
  const { producerIds, consumerIds } = participants;
  const local: LocalFlow[] = [];
  eachLocalFlow(participants, into, (c, p, wh) => local.push({ producerId: producerIds[p]!, consumerId: consumerIds[c]!, wh }));
  return {
    local,
    grid: consumerIds.map((consumerId, c) => ({ consumerId, wh: demand[c]! - into.local[c]! })).filter((g) => g.wh > 0),
    feedIn: producerIds.map((producerId, p) => ({ producerId, wh: production[p]! - into.supplied[p]! })).filter((f) => f.wh > 0),
  };
}

/** Step 1 under the priority key: local energy per consumer (same order as `consumers`). */
export function shareSupply(supply: number, consumers: readonly ConsumerInput[], rotation: number): number[] {
  return stepOne(priorityParts, supply, consumers, rotation);
}

/**
 * Step 1 under the static key: each consumer gets min(demand, share × supply); what a share leaves
 * unused is fed in, not passed on to the others. In whole Wh: a consumer whose share covers its
 * demand gets the demand; every other one gets floor(share × supply), and the Wh those floors drop
 * together (the floor of their summed fractions) go one each to the largest fractions.
 */
export function staticShares(supply: number, consumers: readonly ConsumerInput[], rotation: number): number[] {
  return stepOne(staticParts, supply, consumers, rotation);
}

/**
 * Step 1 under the dynamic key: supply split in proportion to demand, each consumer capped at its
 * demand (supply × demand / total demand while supply is short, else the demand itself).
 */
export function dynamicShares(supply: number, consumers: readonly ConsumerInput[], rotation: number): number[] {
  return stepOne(dynamicParts, supply, consumers, rotation);
}

/**
 * Splits `total` into integer parts proportional to `weights` (largest remainder; equal remainders
 * rotate among the tied indices, see awardRemainders). Sum of parts === total. If all weights are 0,
 * parts are all 0 (total must then be 0).
 */
export function proportionalSplit(total: number, weights: readonly number[], rotation: number): number[] {
  const parts = new Float64Array(weights.length);
  splitInto(total, weights, weights.length, rotation, parts, { remainders: new Float64Array(weights.length), order: new Int32Array(weights.length) });
  return [...parts];
}

type StepOne = (participants: Participants, supply: number, demand: ArrayLike<number>, rotation: number, into: Allocation) => void;

function stepOne(rule: StepOne, supply: number, consumers: readonly ConsumerInput[], rotation: number): number[] {
  const participants = prepareParticipants([], consumers);
  const into = allocationFor(participants);
  rule(participants, checkWh(supply, 'supply'), sortedValues(consumers), rotation, into);
  return consumers.map((_, given) => into.local[participants.given[given]!]!);
}

/** Water-fills the tiers in turn from the supply. */
function priorityParts(participants: Participants, supply: number, demand: ArrayLike<number>, rotation: number, into: Allocation): void {
  for (const c of participants.given) checkWh(demand[c]!, 'demand');
  let left = supply;
  for (const tier of participants.tiers) left = fillTier(left, tier, participants.idGroups, demand, rotation, into);
}

/** Water-fills one tier from `supply` into `into.local`; returns the supply left over. */
function fillTier(supply: number, tier: Int32Array, idGroups: Int32Array, demand: ArrayLike<number>, rotation: number, into: Allocation): number {
  const { local } = into;
  let wanted = 0;
  for (const c of tier) wanted += demand[c]!;
  // Enough for all (every demand is then at most the fill level) or nothing at all: no order needed.
  if (wanted <= supply) {
    for (const c of tier) local[c] = demand[c]!;
    return supply - wanted;
  }
  if (supply === 0) {
    for (const c of tier) local[c] = 0;
    return 0;
  }
  const byDemand = into.order.subarray(0, tier.length);
  byDemand.set(tier);
  // Index order is meter-id order, equal ids in the order given.
  byDemand.sort((a, b) => demand[a]! - demand[b]! || a - b);
  let left = supply;
  for (let i = 0; i < byDemand.length; i++) {
    const k = byDemand.length - i;
    const level = Math.floor(left / k);
    const consumer = byDemand[i]!;
    if (demand[consumer]! <= level) {
      local[consumer] = demand[consumer]!;
      left -= demand[consumer]!;
      continue;
    }
    // Everyone left wants more than the level: the remainder goes round the meterId order, rotating
    // per interval (equal ids keep their order by demand).
    const rest = byDemand.subarray(i);
    rest.sort((a, b) => idGroups[a]! - idGroups[b]! || demand[a]! - demand[b]! || a - b);
    const extra = left - k * level;
    const start = mod(rotation, k);
    rest.forEach((c, j) => (local[c] = level + (mod(j - start, k) < extra ? 1 : 0)));
    return 0;
  }
  return left;
}

function staticParts(participants: Participants, supply: number, demand: ArrayLike<number>, rotation: number, into: Allocation): void {
  const { shareMicros } = participants;
  let shares = 0;
  for (const c of participants.given) {
    checkWh(demand[c]!, 'demand');
    shares += checkShare(shareMicros[c]!);
  }
  // Shares above 1 in total would hand out more than the supply.
  if (shares > SHARE_SCALE) throw new RangeError(`static shares must sum to at most ${SHARE_SCALE} millionths, got ${shares}`);
  const { local, remainders, order } = into;
  let uncovered = 0;
  let dropped = 0;
  for (let c = 0; c < local.length; c++) {
    const [whole, remainder] = mulDiv(supply, shareMicros[c]!, SHARE_SCALE);
    // Demand is whole Wh, so share × supply >= demand exactly when its floor is.
    if (whole >= demand[c]!) {
      local[c] = demand[c]!;
      remainders[c] = 0;
    } else {
      local[c] = whole;
      remainders[c] = remainder;
      order[uncovered++] = c;
      dropped += remainder;
    }
  }
  awardRemainders(local, remainders, order.subarray(0, uncovered), Math.floor(dropped / SHARE_SCALE), rotation);
}

function dynamicParts(participants: Participants, supply: number, demand: ArrayLike<number>, rotation: number, into: Allocation): void {
  let wanted = 0;
  for (const c of participants.given) wanted += checkWh(demand[c]!, 'demand');
  if (supply >= wanted) into.local.set(demand);
  // splitInto breaks ties in index order, which is meter-id order.
  else splitInto(supply, demand, into.local.length, rotation, into.local, into);
}

/** proportionalSplit of `weights[0..count)` into `parts`. */
function splitInto(total: number, weights: ArrayLike<number>, count: number, rotation: number, parts: Float64Array, scratch: Pick<Allocation, 'remainders' | 'order'>): void {
  checkWh(total, 'total');
  let weightSum = 0;
  for (let i = 0; i < count; i++) weightSum += checkWh(weights[i]!, 'weight');
  if (weightSum === 0) {
    if (total !== 0) throw new RangeError(`cannot split ${total} Wh by zero weights`);
    parts.fill(0, 0, count);
    return;
  }
  const { remainders, order } = scratch;
  let given = 0;
  for (let i = 0; i < count; i++) {
    const [whole, remainder] = mulDiv(total, weights[i]!, weightSum);
    parts[i] = whole;
    remainders[i] = remainder;
    order[i] = i;
    given += whole;
  }
  awardRemainders(parts, remainders, order.subarray(0, count), total - given, rotation);
}

/**
 * Adds 1 Wh to `count` of the `candidates` (ascending indices), largest remainder first. "Equal
 * remainders rotate among the tied only": each group of equal remainders is taken in candidate
 * order (meter-id order), starting at position rotation mod group size. Rotating over all
 * candidates instead, a start on an untied candidate passes the Wh on to the next tied one, which
 * then gets it more often (2:1 for two tied among three).
 */
function awardRemainders(parts: Float64Array, remainders: Float64Array, candidates: Int32Array, count: number, rotation: number): void {
  if (count <= 0) return;
  const ranked = candidates.sort((a, b) => remainders[b]! - remainders[a]! || a - b);
  let left = count;
  let first = 0;
  while (left > 0 && first < ranked.length) {
    let end = first + 1;
    while (end < ranked.length && remainders[ranked[end]!] === remainders[ranked[first]!]) end++;
    const tied = end - first;
    const start = mod(rotation, tied);
    const given = Math.min(left, tied);
    for (let j = 0; j < given; j++) parts[ranked[first + mod(start + j, tied)]!]! += 1;
    left -= given;
    first = end;
  }
}

/** floor(a × b / divisor) and the remainder, exact: in BigInt where a × b exceeds 2^53 (monthly intervals). */
function mulDiv(a: number, b: number, divisor: number): [whole: number, remainder: number] {
  const product = a * b;
  // A product of 2^53 or more never rounds down to a safe integer, so this test is exact.
  if (product <= Number.MAX_SAFE_INTEGER) {
    const remainder = product % divisor;
    // Subtracting the remainder first keeps the division exact (a floored float quotient may round up).
    return [(product - remainder) / divisor, remainder];
  }
  const exact = BigInt(a) * BigInt(b);
  const big = BigInt(divisor);
  return [Number(exact / big), Number(exact % big)];
}

/** Stable meter-id order of `items` as indices. */
function idOrder(items: readonly { meterId: string }[]): number[] {
  return items.map((_, i) => i).sort((a, b) => compareIds(items[a]!.meterId, items[b]!.meterId) || a - b);
}

/** The energies of `items` in meter-id order (the index order of prepared participants). */
function sortedValues(items: readonly { meterId: string; wh: number }[]): number[] {
  return idOrder(items).map((i) => items[i]!.wh);
}

// Code-unit order, so the result does not depend on the runtime's locale.
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function checkWh(wh: number, what: string): number {
  if (!Number.isSafeInteger(wh) || wh < 0) throw new RangeError(`${what} must be a non-negative integer Wh, got ${wh}`);
  return wh;
}

function checkShare(micros: number): number {
  if (!Number.isSafeInteger(micros) || micros < 0 || micros > SHARE_SCALE) throw new RangeError(`share must be 0..${SHARE_SCALE} millionths, got ${micros}`);
  return micros;
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}
