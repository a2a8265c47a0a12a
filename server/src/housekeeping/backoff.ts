/** An exponential back-off: `baseMs` × 2^(n−1) after the n-th failure, capped at `maxMs`. */
export interface Backoff {
  readonly baseMs: number;
  readonly maxMs: number;
}

/** Each delay is spread ±20 % so instances that failed together do not retry in lockstep. */
const JITTER = 0.2;

/** Delay after the given number of failed attempts (1 = the first failure). `random` is in [0, 1). */
export function backoffDelayMs(backoff: Backoff, failedAttempts: number, random: () => number): number {
  const exponential = backoff.baseMs * 2 ** Math.max(0, failedAttempts - 1);
  const capped = Math.min(exponential, backoff.maxMs);
  return Math.round(capped * (1 - JITTER + 2 * JITTER * random()));
}
