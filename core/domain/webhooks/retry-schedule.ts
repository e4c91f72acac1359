export interface RetrySchedule {
  /** Delay after the first failed attempt. */
  baseSeconds: number;
  /** No delay grows beyond this. */
  capSeconds: number;
  /** After this many attempts a delivery is `failed`. */
  maxAttempts: number;
}

/**
 * The default: 30 s doubling to at most 8 h, 19 attempts — about 3 days from the first attempt
 * to the last.
 */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = { baseSeconds: 30, capSeconds: 8 * 3600, maxAttempts: 19 };

/**
 * Seconds to wait after the `attempts`-th failed attempt, or null when the delivery has had its
 * last one. Exponential with ±20 % jitter (`random` in [0, 1)), so endpoints recovering from an
 * outage are not hit by every retry at once.
 */
export function retryDelaySeconds(schedule: RetrySchedule, attempts: number, random: number): number | null {
  if (attempts >= schedule.maxAttempts) return null;
  const exponential = Math.min(schedule.capSeconds, schedule.baseSeconds * 2 ** (attempts - 1));
  return exponential * (0.8 + 0.4 * random);
}
