import { describe, expect, it } from 'vitest';
import { claimUnlockMail, clearFailures, failureCount } from '../src/accounts/account-repository.ts';
import { claimAttempt, lockState, lockStateOf, recordFailure } from '../src/accounts/lockout.ts';
import { useTestDatabase } from './support/database.ts';

/**
 * The failure counter behind DESIGN §2 Login's lockout, on a real database: where a lock ends, what
 * a failure on a locked identifier reports, and that of racing failures exactly one locks (and sends
 * the one unlock mail). The numbers are this file's own: threshold 3, a 60-minute lock.
 */

const testDb = useTestDatabase();
const MINUTE = 60_000;
const POLICY = { threshold: 3, minutes: 60 };
const T0 = new Date('2026-03-01T08:00:00Z');
const at = (minutes: number, seconds = 0) => new Date(T0.getTime() + minutes * MINUTE + seconds * 1000);
let serial = 0;
const freshIdentifier = () => `lockout-counter-${++serial}`;

async function lockAt(identifier: string, now: Date, policy = POLICY) {
  for (let n = 1; n < policy.threshold; n++) await recordFailure(testDb().db, identifier, now, policy);
  return recordFailure(testDb().db, identifier, now, policy);
}

describe('lock state of a counter row', () => {
  it('no failures on record: not locked, nothing to clear', () => {
    expect(lockStateOf(null, T0)).toEqual({ locked: false, hasFailures: false, expired: false });
  });

  it('failures below the threshold: not locked, failures on record', () => {
    expect(lockStateOf({ lockedAt: null, lockedUntil: null }, T0)).toEqual({
      locked: false,
      hasFailures: true,
      expired: false,
    });
  });

  it('a 60-minute lock holds one second before its end and is over at its end', () => {
    const row = { lockedAt: T0, lockedUntil: at(60) };
    expect(lockStateOf(row, at(59, 59))).toEqual({ locked: true, hasFailures: true, expired: false });
    expect(lockStateOf(row, at(60))).toEqual({ locked: false, hasFailures: false, expired: true });
  });

  it('a lock without an end holds until unlocked', () => {
    expect(lockStateOf({ lockedAt: T0, lockedUntil: null }, at(60 * 24 * 365)).locked).toBe(true);
  });
});

describe('counting failures', () => {
  it('the third failure locks, and only that one reports the lock as new', async () => {
    const id = freshIdentifier();
    const { db } = testDb();
    expect(await recordFailure(db, id, T0, POLICY)).toEqual({ locked: false, lockedNow: false });
    expect(await recordFailure(db, id, T0, POLICY)).toEqual({ locked: false, lockedNow: false });
    expect(await recordFailure(db, id, T0, POLICY)).toEqual({ locked: true, lockedNow: true });
    expect(await recordFailure(db, id, at(1), POLICY)).toEqual({ locked: true, lockedNow: false });
    // A failure while locked is refused before its password is looked at: nothing more to count.
    expect(await failureCount(db, id)).toBe(3);
  });

  it('of two failures racing past the threshold, exactly one reports the new lock', async () => {
    const id = freshIdentifier();
    const { db } = testDb();
    await recordFailure(db, id, T0, POLICY);
    await recordFailure(db, id, T0, POLICY);
    const outcomes = await Promise.all([
      recordFailure(db, id, T0, POLICY),
      recordFailure(db, id, T0, POLICY),
    ]);
    expect(outcomes.every((outcome) => outcome.locked)).toBe(true);
    expect(outcomes.filter((outcome) => outcome.lockedNow)).toHaveLength(1);
  });

  it('an expired lock is cleared when read, so counting starts afresh', async () => {
    const id = freshIdentifier();
    const { db } = testDb();
    await lockAt(id, T0);
    expect(await lockState(db, id, at(59, 59))).toEqual({ locked: true, hasFailures: true });
    expect(await failureCount(db, id)).toBe(3);
    expect(await lockState(db, id, at(60))).toEqual({ locked: false, hasFailures: false });
    expect(await failureCount(db, id)).toBe(0);
    expect(await recordFailure(db, id, at(61), POLICY)).toEqual({ locked: false, lockedNow: false });
  });

  it('a lock that has not ended is kept when read', async () => {
    const id = freshIdentifier();
    const { db } = testDb();
    await lockAt(id, T0, { threshold: 3, minutes: 0 });
    expect(await lockState(db, id, at(60 * 24 * 30))).toEqual({ locked: true, hasFailures: true });
    expect(await failureCount(db, id)).toBe(3);
  });
});

describe('claiming attempts before their passwords are checked', () => {
  it('of 20 parallel attempts admits exactly 3, and exactly one of them takes the lock', async () => {
    const id = freshIdentifier();
    const { db } = testDb();
    const claims = await Promise.all(Array.from({ length: 20 }, () => claimAttempt(db, id, T0, POLICY)));
    expect(claims.filter((claim) => claim.admitted)).toHaveLength(3);
    expect(claims.filter((claim) => claim.admitted && claim.locks)).toHaveLength(1);
    expect(await failureCount(db, id)).toBe(3);
    expect(await lockState(db, id, at(59, 59))).toEqual({ locked: true, hasFailures: true });
  });

  it('admits nothing while locked and starts afresh once the lock has ended, for parallel attempts too', async () => {
    const id = freshIdentifier();
    const { db } = testDb();
    await lockAt(id, T0);
    expect(await claimUnlockMail(db, id, T0, T0)).toBe(true);
    expect(await claimAttempt(db, id, at(59, 59), POLICY)).toEqual({ admitted: false });
    const claims = await Promise.all(Array.from({ length: 20 }, () => claimAttempt(db, id, at(60), POLICY)));
    expect(claims.filter((claim) => claim.admitted)).toHaveLength(3);
    expect(claims.filter((claim) => claim.admitted && claim.locks)).toHaveLength(1);
    // The new lock runs 60 minutes from its own start and may queue its own unlock mail.
    expect(await lockState(db, id, at(119, 59))).toEqual({ locked: true, hasFailures: true });
    expect(await claimUnlockMail(db, id, at(60), at(60))).toBe(true);
  });

  it('with a threshold of 1 the first attempt takes the lock, and with LOCKOUT_MINUTES 0 it holds', async () => {
    const id = freshIdentifier();
    const { db } = testDb();
    expect(await claimAttempt(db, id, T0, { threshold: 1, minutes: 0 })).toEqual({
      admitted: true,
      locks: true,
      lockedAt: T0,
    });
    expect(await claimAttempt(db, id, at(60 * 24 * 365), { threshold: 1, minutes: 0 })).toEqual({
      admitted: false,
    });
  });
});

describe('the unlock mail of a lock', () => {
  it('is claimed once per lock, and again after the lock is cleared and set anew', async () => {
    const id = freshIdentifier();
    const { db } = testDb();
    await lockAt(id, T0);
    expect(await claimUnlockMail(db, id, T0, T0)).toBe(true);
    expect(await claimUnlockMail(db, id, T0, at(1))).toBe(false);
    await clearFailures(db, id);
    await lockAt(id, at(2));
    expect(await claimUnlockMail(db, id, at(2), at(2))).toBe(true);
  });

  it('is not claimed for a lock that is gone, nor for the count started after it', async () => {
    const id = freshIdentifier();
    const { db } = testDb();
    await lockAt(id, T0);
    // An unlock cleared it, and a new attempt started a count of its own.
    await clearFailures(db, id);
    await claimAttempt(db, id, at(1), POLICY);
    expect(await claimUnlockMail(db, id, T0, at(1))).toBe(false);
    // That count's own lock still claims its mail.
    await claimAttempt(db, id, at(2), POLICY);
    await claimAttempt(db, id, at(3), POLICY);
    expect(await lockState(db, id, at(3))).toEqual({ locked: true, hasFailures: true });
    expect(await claimUnlockMail(db, id, at(3), at(3))).toBe(true);
  });

  it('of two racing claims, exactly one wins', async () => {
    const id = freshIdentifier();
    const { db } = testDb();
    await lockAt(id, T0);
    const claims = await Promise.all([claimUnlockMail(db, id, T0, T0), claimUnlockMail(db, id, T0, T0)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
  });
});
