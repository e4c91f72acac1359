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

/** Step 1 per allocation key: local energy per consumer (same order as the consumers given). */
const SHARES: Record<AllocationKey, (supply: number, consumers: readonly ConsumerInput[], rotation: number) => number[]> = {
  priority: shareSupply,
  static: staticShares,
  dynamic: dynamicShares,
};

/** Shares the interval's local production among its consumers by its key and attributes it to producers. */
export function allocateInterval(input: IntervalInput): IntervalAllocation {
  const producers = [...input.producers].sort(byMeterId);
  const productions = producers.map((p) => p.wh);
  const supply = sum(productions.map((wh) => checkWh(wh, 'production')));
  const local = SHARES[input.key](supply, input.consumers, input.rotation);
  const consumers = input.consumers.map((c, i) => ({ meterId: c.meterId, demand: c.wh, local: local[i]! })).sort(byMeterId);
  const shares = proportionalSplit(sum(local), productions, input.rotation);

  // North-west corner rule: consumers draw from the producers' shares in meterId order.
  const flows: LocalFlow[] = [];
  const left = [...shares];
  let p = 0;
  for (const consumer of consumers) {
    let need = consumer.local;
    while (need > 0) {
      const wh = Math.min(need, left[p]!);
      if (wh > 0) flows.push({ producerId: producers[p]!.meterId, consumerId: consumer.meterId, wh });
      need -= wh;
      left[p]! -= wh;
      if (left[p] === 0) p++;
    }
  }

  return {
    local: flows,
    grid: consumers.map((c) => ({ consumerId: c.meterId, wh: c.demand - c.local })).filter((g) => g.wh > 0),
    feedIn: producers.map((pr, i) => ({ producerId: pr.meterId, wh: pr.wh - shares[i]! })).filter((f) => f.wh > 0),
  };
}

/** Step 1 under the priority key: local energy per consumer (same order as `consumers`). */
export function shareSupply(supply: number, consumers: readonly ConsumerInput[], rotation: number): number[] {
  checkWh(supply, 'supply');
  const tiers = new Map<number | null, ConsumerInput[]>();
  for (const consumer of consumers) {
    checkWh(consumer.wh, 'demand');
    const tier = tiers.get(consumer.priority);
    if (tier) tier.push(consumer);
    else tiers.set(consumer.priority, [consumer]);
  }
  const order = [...tiers.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b));

  const given = new Map<ConsumerInput, number>();
  let left = supply;
  for (const priority of order) {
    left = fillTier(left, tiers.get(priority)!, rotation, given);
  }
  return consumers.map((c) => given.get(c)!);
}

/**
 * Step 1 under the static key: each consumer gets min(demand, share × supply); what a share leaves
 * unused is fed in, not passed on to the others. In whole Wh: a consumer whose share covers its
 * demand gets the demand; every other one gets floor(share × supply), and the Wh those floors drop
 * together (the floor of their summed fractions) go one each to the largest fractions.
 */
export function staticShares(supply: number, consumers: readonly ConsumerInput[], rotation: number): number[] {
  checkWh(supply, 'supply');
  const shares = consumers.map((c) => {
    checkWh(c.wh, 'demand');
    return checkShare(c.shareMicros ?? 0);
  });
  // Shares above 1 in total would hand out more than the supply.
  if (sum(shares) > SHARE_SCALE) throw new RangeError(`static shares must sum to at most ${SHARE_SCALE} millionths, got ${sum(shares)}`);
  const parts: number[] = [];
  const remainders: number[] = [];
  const uncovered: number[] = [];
  consumers.forEach((c, i) => {
    const [whole, remainder] = mulDiv(supply, shares[i]!, SHARE_SCALE);
    // Demand is whole Wh, so share × supply >= demand exactly when its floor is.
    if (whole >= c.wh) {
      parts.push(c.wh);
      remainders.push(0);
    } else {
      parts.push(whole);
      remainders.push(remainder);
      uncovered.push(i);
    }
  });
  uncovered.sort((a, b) => compareIds(consumers[a]!.meterId, consumers[b]!.meterId));
  awardRemainders(parts, remainders, uncovered, Math.floor(sum(uncovered.map((i) => remainders[i]!)) / SHARE_SCALE), rotation);
  return parts;
}

/**
 * Step 1 under the dynamic key: supply split in proportion to demand, each consumer capped at its
 * demand (supply × demand / total demand while supply is short, else the demand itself).
 */
export function dynamicShares(supply: number, consumers: readonly ConsumerInput[], rotation: number): number[] {
  checkWh(supply, 'supply');
  const demand = sum(consumers.map((c) => checkWh(c.wh, 'demand')));
  if (supply >= demand) return consumers.map((c) => c.wh);
  // proportionalSplit breaks ties in index order; consumer ties go by meter id.
  const order = consumers.map((_, i) => i).sort((a, b) => compareIds(consumers[a]!.meterId, consumers[b]!.meterId));
  const parts = proportionalSplit(supply, order.map((i) => consumers[i]!.wh), rotation);
  const given: number[] = consumers.map(() => 0);
  order.forEach((i, j) => (given[i] = parts[j]!));
  return given;
}

/**
 * Splits `total` into integer parts proportional to `weights` (largest remainder; equal remainders
 * rotate among the tied indices, see awardRemainders). Sum of parts === total. If all weights are 0,
 * parts are all 0 (total must then be 0).
 */
export function proportionalSplit(total: number, weights: readonly number[], rotation: number): number[] {
  checkWh(total, 'total');
  const weightSum = sum(weights.map((w) => checkWh(w, 'weight')));
  if (weightSum === 0) {
    if (total !== 0) throw new RangeError(`cannot split ${total} Wh by zero weights`);
    return weights.map(() => 0);
  }
  const parts: number[] = [];
  const remainders: number[] = [];
  for (const weight of weights) {
    const [whole, remainder] = mulDiv(total, weight, weightSum);
    parts.push(whole);
    remainders.push(remainder);
  }
  awardRemainders(parts, remainders, weights.map((_, i) => i), total - sum(parts), rotation);
  return parts;
}

/**
 * Adds 1 Wh to `count` of the `candidates`, largest remainder first. "Equal remainders rotate among
 * the tied only": each group of equal remainders is taken in candidate order (meter-id order),
 * starting at position rotation mod group size. Rotating over all candidates instead, a start on an
 * untied candidate passes the Wh on to the next tied one, which then gets it more often (2:1 for two
 * tied among three).
 */
function awardRemainders(parts: number[], remainders: readonly number[], candidates: readonly number[], count: number, rotation: number): void {
  // Array sort is stable: within equal remainders the candidate order stays.
  const ranked = [...candidates].sort((a, b) => remainders[b]! - remainders[a]!);
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

/** Water-fills one tier from `supply`, recording each consumer's energy in `given`; returns the supply left over. */
function fillTier(supply: number, tier: readonly ConsumerInput[], rotation: number, given: Map<ConsumerInput, number>): number {
  const byDemand = [...tier].sort((a, b) => a.wh - b.wh || compareIds(a.meterId, b.meterId));
  let left = supply;
  for (let i = 0; i < byDemand.length; i++) {
    const k = byDemand.length - i;
    const level = Math.floor(left / k);
    const consumer = byDemand[i]!;
    if (consumer.wh <= level) {
      given.set(consumer, consumer.wh);
      left -= consumer.wh;
      continue;
    }
    // Everyone left wants more than the level: the remainder goes round the meterId order, rotating per interval.
    const rest = byDemand.slice(i).sort(byMeterId);
    const extra = left - k * level;
    const start = mod(rotation, k);
    rest.forEach((c, j) => given.set(c, level + (mod(j - start, k) < extra ? 1 : 0)));
    return 0;
  }
  return left;
}

// Code-unit order, so the result does not depend on the runtime's locale.
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byMeterId(a: { meterId: string }, b: { meterId: string }): number {
  return compareIds(a.meterId, b.meterId);
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

function sum(values: readonly number[]): number {
  return values.reduce((acc, v) => acc + v, 0);
}
