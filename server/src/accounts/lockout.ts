import type { Db } from '../store/database.ts';
import {
  type ClaimedAttempt,
  type ClaimRule,
  claimAttemptSlot,
  clearEndedLock,
  findLoginFailures,
  type LoginFailureRow,
} from './account-repository.ts';

/** Account rules of DESIGN §2 / §5: LOCKOUT_THRESHOLD and LOCKOUT_MINUTES. */
export type LockoutPolicy = ClaimRule;

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
  // Stryker disable next-line ConditionalExpression: clearEndedLock deletes only a lock whose time is up, so calling it always changes nothing more; the check saves a statement
  if (expired) await clearEndedLock(db, identifierHash, now);
  return state;
}

export async function isLocked(db: Db, identifierHash: string, now: Date): Promise<boolean> {
  return (await lockState(db, identifierHash, now)).locked;
}

/** A sign-in attempt's place in its identifier's count, taken before its password is checked. */
export type AttemptClaim =
  /** The identifier is locked: the attempt is refused whatever its password, which is not checked. */
  | { readonly admitted: false }
  /**
   * The attempt is counted as a failure until its password proves right (a success clears the count).
   * `locks`: it reached the threshold and locked the identifier; should its password be wrong, the
   * lock stands and this attempt, exactly one of any number in parallel, queues the unlock mail.
   * `lockedAt`: the time of that lock (null when it took none), the one its success may lift.
   */
  | { readonly admitted: true; readonly locks: boolean; readonly lockedAt: Date | null };

/** The claim of an attempt whose statement answered `claimed` (null: not admitted, nothing counted). */
export function attemptClaimOf(claimed: ClaimedAttempt | null): AttemptClaim {
  if (!claimed) return { admitted: false };
  return { admitted: true, locks: claimed.lockedAt !== null, lockedAt: claimed.lockedAt };
}

/**
 * Claims one attempt (DESIGN §2 Login). Counting comes first and the lock is taken in the same single
 * statement, so parallel attempts can check no more passwords than the threshold allows: the one that
 * reaches it locks, and none after it is admitted. A sign-in claims in the statement that reads its
 * facts (login-facts.ts); this is the same claim on its own.
 */
export async function claimAttempt(
  db: Db,
  identifierHash: string,
  now: Date,
  policy: LockoutPolicy,
): Promise<AttemptClaim> {
  return attemptClaimOf(await claimAttemptSlot(db, identifierHash, now, policy));
}

export interface FailureOutcome {
  /** The identifier is locked after this failure. */
  locked: boolean;
  /** This very failure locked it (exactly one concurrent caller sees true): queue the unlock mail. */
  lockedNow: boolean;
}

/** Counts one attempt whose password is known to be wrong, as a sign-in counts it (claimAttempt). */
export async function recordFailure(
  db: Db,
  identifierHash: string,
  now: Date,
  policy: LockoutPolicy,
): Promise<FailureOutcome> {
  const claim = await claimAttempt(db, identifierHash, now, policy);
  if (!claim.admitted) return { locked: true, lockedNow: false };
  return { locked: claim.locks, lockedNow: claim.locks };
}
