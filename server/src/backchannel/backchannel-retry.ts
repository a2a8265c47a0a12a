import { backoffDelayMs } from '../housekeeping/backoff.ts';

/**
 * When a logout token that could not be posted is tried again: 15 s × 2^(n−1) after the n-th failure,
 * capped at 15 minutes, each ±20 % so instances do not retry in lockstep. Ten attempts span about an
 * hour (15 + 30 + 60 + 120 + 240 + 480 + 900 + 900 + 900 s), long enough to outlast a relying party's
 * deployment, short enough that a token about a long-ended session is not delivered much later.
 */
export const LOGOUT_RETRY_BASE_MS = 15_000;
export const LOGOUT_RETRY_MAX_DELAY_MS = 15 * 60_000;
export const LOGOUT_MAX_ATTEMPTS = 10;

/** Delay after the given number of failed attempts (1 = the first failure). `random` is in [0, 1). */
export function logoutRetryDelayMs(failedAttempts: number, random: () => number = Math.random): number {
  return backoffDelayMs(
    { baseMs: LOGOUT_RETRY_BASE_MS, maxMs: LOGOUT_RETRY_MAX_DELAY_MS },
    failedAttempts,
    random,
  );
}
