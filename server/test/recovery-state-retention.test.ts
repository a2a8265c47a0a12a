import { VerificationType } from '@keycard/contract';
import { describe, expect, it, vi } from 'vitest';
import { startRecoveryStateRetention } from '../src/recovery/state-retention.ts';
import { manualClock } from '../src/store/clock.ts';
import { loginFailures, verificationCodes } from '../src/store/tables/index.ts';
import { useTestDatabase } from './support/database.ts';
import { createAccount } from './support/oidc-flow.ts';

const testDb = useTestDatabase();
const db = () => testDb().db;

const NOW = Date.parse('2026-03-01T12:00:00Z');
const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** The data policy's 4 weeks, as the audit log keeps its rows. */
const RETENTION_MS = 28 * DAY_MS;
const ago = (ms: number) => new Date(NOW - ms);

async function counters(): Promise<string[]> {
  const rows = await db().select({ hash: loginFailures.identifierHash }).from(loginFailures);
  return rows.map((row) => row.hash).sort();
}

async function codes(): Promise<string[]> {
  const rows = await db().select({ hash: verificationCodes.codeHash }).from(verificationCodes);
  return rows.map((row) => row.hash).sort();
}

describe('failure counts and codes are kept 28 days, then deleted (data policy)', () => {
  it('deletes counts nobody touched for over 28 days, never a lock in force, at start and on every pass', async () => {
    await db().delete(loginFailures);
    await db()
      .insert(loginFailures)
      .values([
        { identifierHash: 'recent', failureCount: 2, updatedAt: ago(DAY_MS) },
        { identifierHash: 'within', failureCount: 4, updatedAt: ago(RETENTION_MS - MINUTE_MS) },
        { identifierHash: 'idle', failureCount: 1, updatedAt: ago(RETENTION_MS + MINUTE_MS) },
        {
          identifierHash: 'lock-ended',
          failureCount: 5,
          lockedAt: ago(RETENTION_MS + 2 * MINUTE_MS),
          lockedUntil: ago(RETENTION_MS - 58 * MINUTE_MS),
          updatedAt: ago(RETENTION_MS + 2 * MINUTE_MS),
        },
        // A long LOCKOUT_MINUTES: locked 40 days ago, until tomorrow.
        {
          identifierHash: 'locked-until-tomorrow',
          failureCount: 5,
          lockedAt: ago(40 * DAY_MS),
          lockedUntil: new Date(NOW + DAY_MS),
          updatedAt: ago(40 * DAY_MS),
        },
        // LOCKOUT_MINUTES=0: locked until unlocked, however long ago.
        {
          identifierHash: 'locked-until-unlocked',
          failureCount: 5,
          lockedAt: ago(90 * DAY_MS),
          lockedUntil: null,
          updatedAt: ago(90 * DAY_MS),
        },
      ]);
    const clock = manualClock(new Date(NOW));
    const log = { info: vi.fn(), error: vi.fn() };
    const retention = startRecoveryStateRetention({ db: db(), clock, log, intervalMs: 3_600_000 });
    try {
      await vi.waitFor(async () =>
        expect(await counters()).toEqual([
          'locked-until-tomorrow',
          'locked-until-unlocked',
          'recent',
          'within',
        ]),
      );
      // The pass logs once its second statement (the codes) is done too, which a loaded machine may
      // not have reached when the counts are already gone.
      await vi.waitFor(() =>
        expect(log.info).toHaveBeenCalledWith(
          'failure counts and codes: deleted 2 untouched or expired over 28 days ago',
        ),
      );
      // Two minutes on, the count last touched 27 days 23 hours 59 minutes ago is past 28 days too.
      clock.advance(2 * MINUTE_MS);
      expect(await retention.runOnce()).toBe(1);
      expect(await counters()).toEqual(['locked-until-tomorrow', 'locked-until-unlocked', 'recent']);
      expect(log.error).not.toHaveBeenCalled();
    } finally {
      retention.stop();
    }
  });

  it('deletes codes that expired over 28 days ago, used or not, and keeps later ones and unlock codes', async () => {
    await db().delete(loginFailures);
    const account = await createAccount(db(), `retention-${Date.now()}@example.com`, null);
    const code = (
      codeHash: string,
      expiredAgo: number,
      consumed = false,
      verificationType: VerificationType = VerificationType.PasswordReset,
    ) => ({
      codeHash,
      accountId: account.id,
      verificationType,
      createdAt: ago(expiredAgo + 60 * MINUTE_MS),
      expiresAt: ago(expiredAgo),
      consumedAt: consumed ? ago(expiredAgo + MINUTE_MS) : null,
      // An account has one live code of a type: each unspent reset code before the live one was
      // superseded by the next; the other types have one code each here.
      supersededAt:
        consumed || codeHash === 'live' || verificationType !== VerificationType.PasswordReset
          ? null
          : ago(expiredAgo + MINUTE_MS),
    });
    await db()
      .insert(verificationCodes)
      .values([
        code('live', -30 * MINUTE_MS),
        code('expired-within', RETENTION_MS - MINUTE_MS),
        code('expired-past', RETENTION_MS + MINUTE_MS),
        code('used-past', RETENTION_MS + MINUTE_MS, true),
        code('invitation-past', RETENTION_MS + MINUTE_MS, false, VerificationType.VerifyUser),
        code('new-address-past', RETENTION_MS + MINUTE_MS, false, VerificationType.EmailChanged),
        // SPEC §8: an unlock link, however old, says it expired.
        code('unlock-past', 90 * DAY_MS, true, VerificationType.LockedAfterTooManyFailedAttempts),
      ]);
    const clock = manualClock(new Date(NOW));
    const retention = startRecoveryStateRetention({
      db: db(),
      clock,
      log: { info: vi.fn(), error: vi.fn() },
      intervalMs: 3_600_000,
    });
    try {
      await vi.waitFor(async () => expect(await codes()).toEqual(['expired-within', 'live', 'unlock-past']));
      clock.advance(2 * MINUTE_MS);
      expect(await retention.runOnce()).toBe(1);
      expect(await codes()).toEqual(['live', 'unlock-past']);
    } finally {
      retention.stop();
    }
  });
});
