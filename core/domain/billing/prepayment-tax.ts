import { divideRounded, type Cents } from './money.js';

/** One tax rate of an invoice: its percentage and the gross amount (net plus VAT) billed at it. */
export interface GrossAtRate {
  /** Hundredths of a per cent (1900n is 19 %). */
  percentage: bigint;
  gross: Cents;
}

/** The share of the deducted prepayments at one rate and the VAT it contains. */
export interface PrepaymentTax {
  /** Hundredths of a per cent. */
  percentage: bigint;
  /** The gross share less its VAT. */
  netAmount: Cents;
  /** The VAT contained in the gross share. */
  taxAmount: Cents;
}

const abs = (value: bigint) => (value < 0n ? -value : value);

/**
 * The VAT contained in the prepayments an invoice deducts (§14 (5) UStG). Prepayments are gross
 * amounts: the VAT in a gross amount G at p % is G × p / (100 + p), rounded half up to the cent,
 * and the net amount is G less that VAT.
 *
 * - Rates of the same percentage count as one; the result is in the order the percentages first
 *   occur in `rates`.
 * - One rate: the whole total is at that rate.
 * - Several rates: the total is split over them in proportion to the invoice's gross amount per
 *   rate, each share rounded down to the cent and the cents left over given one each to the
 *   shares with the largest remainders (the earlier rate first on a tie), so that the shares sum
 *   to the total exactly. Rates whose gross points the other way than the invoice's total gross
 *   (or is zero) take no share; when no rate has a gross amount, the total is split evenly. A
 *   rate whose share comes to zero cents is left out.
 * - A negative total (a credit note) is split like its amount and every result negated.
 * - Nothing to split (a zero total, or no rates): empty.
 */
export function prepaymentTaxes(prepaymentsTotal: Cents, rates: readonly GrossAtRate[]): PrepaymentTax[] {
  if (prepaymentsTotal === 0n || rates.length === 0) return [];
  const merged = new Map<bigint, Cents>();
  for (const { percentage, gross } of rates) merged.set(percentage, (merged.get(percentage) ?? 0n) + gross);
  const percentages = [...merged.keys()];
  const grossTotal = [...merged.values()].reduce((sum, gross) => sum + gross, 0n);
  const direction = grossTotal < 0n ? -1n : 1n;
  let weights = percentages.map((percentage) => {
    const weight = merged.get(percentage)! * direction;
    return weight > 0n ? weight : 0n;
  });
  let weightTotal = weights.reduce((sum, weight) => sum + weight, 0n);
  if (weightTotal === 0n) {
    weights = percentages.map(() => 1n);
    weightTotal = BigInt(percentages.length);
  }
  const sign = prepaymentsTotal < 0n ? -1n : 1n;
  const total = abs(prepaymentsTotal);
  const shares = weights.map((weight) => (total * weight) / weightTotal);
  const remainders = weights.map((weight, index) => ({ index, remainder: (total * weight) % weightTotal }));
  let left = total - shares.reduce((sum, share) => sum + share, 0n);
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of remainders) {
    if (left === 0n) break;
    shares[index]! += 1n;
    left -= 1n;
  }
  return percentages.flatMap((percentage, index) => {
    const gross = shares[index]!;
    if (gross === 0n && percentages.length > 1) return [];
    const taxAmount = divideRounded(gross * percentage, 10_000n + percentage);
    return [{ percentage, netAmount: sign * (gross - taxAmount), taxAmount: sign * taxAmount }];
  });
}
