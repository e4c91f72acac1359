/**
 * Money without floats: amounts are integer cents, unit prices integer micro-euros
 * (1e-6), energy integer Wh. In the API they are decimal strings ("12.34", "0.289500").
 */
export type Cents = bigint;
export type Micros = bigint;

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Amounts are stored as signed 64-bit integers of their unit (cents, micro-euros). */
export const MAX_STORED_UNITS = 2n ** 63n - 1n;

/** A decimal string with at most `scale` decimals as an integer of 10^-scale units; null when malformed. */
export function parseDecimal(value: string, scale: number): bigint | null {
  const match = DECIMAL.exec(value);
  if (!match || (match[3] ?? '').length > scale) return null;
  const units = BigInt(match[2]! + (match[3] ?? '').padEnd(scale, '0'));
  return match[1] ? -units : units;
}

/** An integer of 10^-scale units as a decimal string with exactly `scale` decimals. */
export function formatDecimal(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

export const parseCents = (value: string): Cents | null => parseDecimal(value, 2);
export const formatCents = (cents: Cents): string => formatDecimal(cents, 2);
export const parseMicros = (value: string): Micros | null => parseDecimal(value, 6);
export const formatMicros = (micros: Micros): string => formatDecimal(micros, 6);

/** numerator / denominator rounded half away from zero (commercial rounding), exactly. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (magnitude * 2n + denominator) / (denominator * 2n);
  return negative ? -rounded : rounded;
}

/** Wh × micro-euros per kWh, rounded once to the cent: Wh × µ€ / (1000 Wh/kWh × 10^4 µ€/ct). */
export function energyCost(wh: bigint, unitPrice: Micros): Cents {
  return divideRounded(wh * unitPrice, 10_000_000n);
}

/** Net × percentage (a decimal string like "19.00" as hundredths), rounded once to the cent. */
export function taxOf(net: Cents, percentageHundredths: bigint): Cents {
  return divideRounded(net * percentageHundredths, 10_000n);
}
