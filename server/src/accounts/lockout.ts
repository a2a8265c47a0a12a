import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Db, loginFailures } from '../store/tables/index.ts';

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
export type LockRow = Pick<typeof loginFailures.$inferSelect, 'lockedAt' | 'lockedUntil'>;

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
  const [row] = await db.select().from(loginFailures).where(eq(loginFailures.identifierHash, identifierHash));
  const { expired, ...state } = lockStateOf(row ?? null, now);
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
  const [counted] = await db
    .insert(loginFailures)
    .values({ identifierHash, failureCount: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: loginFailures.identifierHash,
      set: { failureCount: sql`${loginFailures.failureCount} + 1`, updatedAt: now },
    })
    .returning({ failureCount: loginFailures.failureCount, lockedAt: loginFailures.lockedAt });
  if (!counted) throw new Error('failure counter was not written');
  if (counted.lockedAt) return { locked: true, lockedNow: false };
  if (counted.failureCount < policy.threshold) return { locked: false, lockedNow: false };
  const lockedUntil = policy.minutes > 0 ? new Date(now.getTime() + policy.minutes * 60_000) : null;
  const locked = await db
    .update(loginFailures)
    .set({ lockedAt: now, lockedUntil })
    .where(and(eq(loginFailures.identifierHash, identifierHash), isNull(loginFailures.lockedAt)))
    .returning({ identifierHash: loginFailures.identifierHash });
  return { locked: true, lockedNow: locked.length === 1 };
}

/** Marks that the unlock mail of the current lock was queued; false when it already was (one per lock). */
export async function claimUnlockMail(db: Db, identifierHash: string, now: Date): Promise<boolean> {
  const claimed = await db
    .update(loginFailures)
    .set({ unlockMailQueuedAt: now })
    .where(and(eq(loginFailures.identifierHash, identifierHash), isNull(loginFailures.unlockMailQueuedAt)))
    .returning({ identifierHash: loginFailures.identifierHash });
  return claimed.length === 1;
}

/** A success, an unlock or a password reset starts the count afresh. */
export async function clearFailures(db: Db, identifierHash: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.identifierHash, identifierHash));
}

export async function failureCount(db: Db, identifierHash: string): Promise<number> {
  const [row] = await db
    .select({ count: loginFailures.failureCount })
    .from(loginFailures)
    .where(eq(loginFailures.identifierHash, identifierHash));
  return row?.count ?? 0;
}
