/** The largest value accepted, in kWh: well inside the exact integer range of doubles in Wh. */
export const MAX_KWH = 1e12;

/**
 * kWh as sent (a JSON number with at most 3 decimals) to integer Wh; null when the value has
 * more precision than a Wh, is negative or not finite.
 */
export function kwhToWh(value: number): number | null {
  if (!Number.isFinite(value) || value < 0 || value > MAX_KWH) return null;
  const wh = Math.round(value * 1000);
  return Math.abs(wh - value * 1000) < 1e-6 * Math.max(1, Math.abs(wh)) ? wh : null;
}

/** Integer Wh to kWh with at most 3 decimals, exact for every Wh value below 2^53. */
export function whToKwh(wh: number): number {
  return Number((wh / 1000).toFixed(3));
}
