/** Production in the interval, integer Wh >= 0. */
export interface ProducerInput {
  meterId: string;
  wh: number;
}

/** Demand in the interval, integer Wh >= 0. Lower priority values are served first; null forms the last tier. */
export interface ConsumerInput {
  meterId: string;
  wh: number;
  priority: number | null;
}

export interface IntervalInput {
  /** Rotation index for tie-breaks, e.g. floor(intervalStartUnixMs / 900000), or months since 1970-01 on monthly sites. */
  rotation: number;
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

/** Shares the interval's local production among its consumers and attributes it to producers. */
export function allocateInterval(input: IntervalInput): IntervalAllocation {
  const producers = [...input.producers].sort(byMeterId);
  const productions = producers.map((p) => p.wh);
  const supply = sum(productions.map((wh) => checkWh(wh, 'production')));
  const local = shareSupply(supply, input.consumers, input.rotation);
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

/** Step 1 alone: local energy per consumer (same order as input.consumers). */
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
 * Splits `total` into integer parts proportional to `weights` (largest remainder; ties broken by index
 * order starting at `rotation mod n`, i.e. rotating). Sum of parts === total. If all weights are 0,
 * parts are all 0 (total must then be 0).
 */
export function proportionalSplit(total: number, weights: readonly number[], rotation: number): number[] {
  checkWh(total, 'total');
  const weightSum = sum(weights.map((w) => checkWh(w, 'weight')));
  if (weightSum === 0) {
    if (total !== 0) throw new RangeError(`cannot split ${total} Wh by zero weights`);
    return weights.map(() => 0);
  }
  if (total * weightSum <= Number.MAX_SAFE_INTEGER) return largestRemainder(total, weights, weightSum, rotation);
  // BigInt because total * weight can exceed 2^53 on monthly intervals.
  const whole = BigInt(total);
  const divisor = BigInt(weightSum);
  const exact = weights.map((w) => whole * BigInt(w));
  const parts = exact.map((e) => Number(e / divisor));
  const remainders = exact.map((e) => e % divisor);
  const n = weights.length;
  const start = mod(rotation, n);
  const ranked = weights
    .map((_, i) => i)
    .sort((a, b) => {
      const ra = remainders[a]!;
      const rb = remainders[b]!;
      return ra === rb ? mod(a - start, n) - mod(b - start, n) : ra > rb ? -1 : 1;
    });
  for (const i of ranked.slice(0, total - sum(parts))) parts[i]! += 1;
  return parts;
}

/** proportionalSplit in plain numbers, exact while total * weightSum stays below 2^53 (quarter hours). */
function largestRemainder(total: number, weights: readonly number[], weightSum: number, rotation: number): number[] {
  const remainders = weights.map((w) => (total * w) % weightSum);
  // Subtracting the remainder first keeps the division exact (a floored float quotient may round up).
  const parts = weights.map((w, i) => (total * w - remainders[i]!) / weightSum);
  const n = weights.length;
  const start = mod(rotation, n);
  const ranked = weights.map((_, i) => i).sort((a, b) => remainders[b]! - remainders[a]! || mod(a - start, n) - mod(b - start, n));
  for (const i of ranked.slice(0, total - sum(parts))) parts[i]! += 1;
  return parts;
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

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}

function sum(values: readonly number[]): number {
  return values.reduce((acc, v) => acc + v, 0);
}
