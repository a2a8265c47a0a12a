import type { Db } from '../store/database.ts';
import {
  clearFailures,
  countFailure,
  findLoginFailures,
  type LoginFailureRow,
  lockIdentifier,
} from './account-repository.ts';

/** Account rules of DESIGN §2 / §5. */
export interface LockoutPolicy {
  /** Consecutive failures that lock an identifier (LOCKOUT_THRESHOLD). */
  threshold: number;
  /** How long a lock lasts; 0 = until unlocked (LOCKOUT_MINUTES). */
  minutes: number;
}

/** True while the identifier is locked at `now`. An expired lock is cleared on the way. */
export interface LockState {
  readonly locked: boolean;
  /** Failures are on record (and not part of a lock in force): a successful sign-in clears them. */
  readonly hasFailures: boolean;
}

/** The part of an identifier's counter row that decides its lock state. */
export type LockRow = Pick<LoginFailureRow, 'lockedAt' | 'lockedUntil'>;

/**
 * The lock state of a counter row (null: no failures on record) at `now`. `expired` says the row holds a
 * lock whose time is up, which the caller clears.
 */
export function lockStateOf(row: LockRow | null, now: Date): LockState & { expired: boolean } {
  if (!row) return { locked: false, hasFailures: false, expired: false };
  if (!row.lockedAt) return { locked: false, hasFailures: true, expired: false };
  if (row.lockedUntil === null || row.lockedUntil > now)
    return { locked: true, hasFailures: true, expired: false };
  return { locked: false, hasFailures: false, expired: true };
}

/** Reads the identifier's counter once; a lock whose time is up is cleared on the way. */
export async function lockState(db: Db, identifierHash: string, now: Date): Promise<LockState> {
  const { expired, ...state } = lockStateOf(await findLoginFailures(db, identifierHash), now);
  if (expired) await clearFailures(db, identifierHash);
  return state;
}

export async function isLocked(db: Db, identifierHash: string, now: Date): Promise<boolean> {
  return (await lockState(db, identifierHash, now)).locked;
}

export interface FailureOutcome {
  /** The identifier is locked after this failure. */
  locked: boolean;
  /** This very failure locked it (exactly one concurrent caller sees true): queue the unlock mail. */
  lockedNow: boolean;
}

/**
 * Counts one failure. The increment is a single upsert and the lock a conditional update, so parallel
 * failures neither lose counts nor lock twice.
 */
export async function recordFailure(
  db: Db,
  identifierHash: string,
  now: Date,
  policy: LockoutPolicy,
): Promise<FailureOutcome> {
  const counted = await countFailure(db, identifierHash, now);
  // Stryker disable next-line all: an upsert with `returning` always answers its row; the guard is for the type
  if (!counted) throw new Error('failure counter was not written');
  // Stryker disable next-line ConditionalExpression: equivalent, the conditional lock below locks no locked row and answers lockedNow false; this only saves its statement
  if (counted.lockedAt) return { locked: true, lockedNow: false };
  if (counted.failureCount < policy.threshold) return { locked: false, lockedNow: false };
  const lockedUntil = policy.minutes > 0 ? new Date(now.getTime() + policy.minutes * 60_000) : null;
  return { locked: true, lockedNow: await lockIdentifier(db, identifierHash, now, lockedUntil) };
}
