import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { clearFailures, failureCount } from '../src/accounts/account-repository.ts';
import { identifierHash } from '../src/accounts/identifiers.ts';
import { recordFailure } from '../src/accounts/lockout.ts';
import { attemptLogin, createLoginDeps, type SuccessRecorder } from '../src/accounts/login.ts';
import { verifyArgon2 } from '../src/accounts/password-hash.ts';
import { auditRow } from '../src/audit/audit-log.ts';
import { findLivePayload } from '../src/oidc/oidc-repository.ts';
import {
  boundLoginResult,
  forgetOutdatedSignIn,
  saveSignInResult,
  signInStillBound,
} from '../src/oidc/sign-in-result.ts';
import { databaseAdapter } from '../src/oidc/storage-adapter.ts';
import { manualClock } from '../src/store/clock.ts';
import type { Db } from '../src/store/database.ts';
import { auditEvents, loginFailures } from '../src/store/tables/index.ts';
import { testConfig } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';
import { createAccount, registerTestClient, startAuthorization, TestBrowser } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/**
 * A sign-in's result goes into its interaction in the statement that puts the sign-in on record
 * (DESIGN §2 Login): the count its attempt took cleared and its audit row written, all or nothing.
 */

const testDb = useTestDatabase();
const T0 = new Date('2026-03-01T08:00:00Z');
const clock = manualClock(T0);
const TEN_MINUTES = 600;
const POLICY = { threshold: 5, minutes: 60 };
let serial = 0;

function adapter(model: string) {
  const Adapter = databaseAdapter(testDb().db, clock, { sessionLifetimes: testConfig().sessionLifetimes });
  return new Adapter(model);
}

/** An interaction as oidc-provider's save writes one: through the storage adapter. */
function interaction(
  uid: string,
  write = (ttl: number) =>
    adapter('Interaction').upsert(uid, { uid, result: { login: { accountId: 'a1' } } }, ttl),
) {
  return { uid, save: write };
}

async function loginRows(db: Db, accountId: string) {
  return db
    .select({ event: auditEvents.event, outcome: auditEvents.outcome })
    .from(auditEvents)
    .where(eq(auditEvents.accountId, accountId))
    .orderBy(asc(auditEvents.id));
}

/** Runs `work` while the database refuses rows that `check` refuses (new rows only). */
async function whileRefusing(
  db: Db,
  table: 'audit_event' | 'oidc_payload',
  check: string,
  work: () => Promise<void>,
) {
  await db.execute(sql.raw(`alter table ${table} add constraint refused check (${check}) not valid`));
  try {
    await work();
  } finally {
    await db.execute(sql.raw(`alter table ${table} drop constraint refused`));
  }
}

/** Every successful sign-in's audit row. */
const auditRefusingSuccess = (db: Db, work: () => Promise<void>) =>
  whileRefusing(db, 'audit_event', "outcome <> 'success'", work);

/** Every interaction holding a result. */
const interactionsRefusingResults = (db: Db, work: () => Promise<void>) =>
  whileRefusing(db, 'oidc_payload', "type <> 'Interaction' or not payload ? 'result'", work);

/** A success's record; `lockedAt`: the lock its own claim took, if it took one. */
function record(identifier: string | null, accountId: string, lockedAt: Date | null = null) {
  return {
    claimed: identifier === null ? null : { identifierHash: identifier, lockedAt },
    audit: auditRow({ event: 'login', outcome: 'success', accountId, ip: '192.0.2.1' }),
  };
}

/** The identifier's counter as it stands: its count and whether a lock is on it. */
async function counter(db: Db, id: string) {
  const [row] = await db
    .select({ count: loginFailures.failureCount, lockedAt: loginFailures.lockedAt })
    .from(loginFailures)
    .where(eq(loginFailures.identifierHash, id));
  return row ? { count: row.count, locked: row.lockedAt !== null } : null;
}

describe('an interaction saved with its sign-in record', () => {
  it('clears the count, writes the audit row and the result in one save', async () => {
    const { db } = testDb();
    const id = `sign-in-result-${++serial}`;
    const accountId = randomUUID(); // whose audit rows the test reads
    await recordFailure(db, id, T0, POLICY);
    await recordFailure(db, id, T0, POLICY);
    expect(await failureCount(db, id)).toBe(2);

    await saveSignInResult(interaction('uid-1'), TEN_MINUTES, record(id, accountId));

    expect(await failureCount(db, id)).toBe(0);
    expect(await loginRows(db, accountId)).toEqual([{ event: 'login', outcome: 'success' }]);
    const saved = await findLivePayload(db, clock, 'Interaction', 'id', 'uid-1');
    expect(saved?.payload).toMatchObject({ result: { login: { accountId: 'a1' } } });
  });

  it('writes nothing of the three when one part fails: the count stays, no row, no result', async () => {
    const { db } = testDb();
    const id = `sign-in-result-${++serial}`;
    const accountId = randomUUID(); // whose audit rows the test reads
    await recordFailure(db, id, T0, POLICY);
    await adapter('Interaction').upsert('uid-2', { uid: 'uid-2' }, TEN_MINUTES);

    await auditRefusingSuccess(db, async () => {
      await expect(
        saveSignInResult(interaction('uid-2'), TEN_MINUTES, record(id, accountId)),
      ).rejects.toThrow();
    });

    expect(await failureCount(db, id)).toBe(1);
    expect(await loginRows(db, accountId)).toEqual([]);
    const kept = await findLivePayload(db, clock, 'Interaction', 'id', 'uid-2');
    expect(kept?.payload).toEqual({ uid: 'uid-2' });
  });

  it('goes only with the save of that interaction, once', async () => {
    const { db } = testDb();
    const id = `sign-in-result-${++serial}`;
    const accountId = randomUUID(); // whose audit rows the test reads
    await recordFailure(db, id, T0, POLICY);
    const writes: string[] = [];
    await saveSignInResult(
      interaction('uid-3', async (ttl) => {
        // Another model under the same key, and another interaction: plain saves.
        await adapter('Session').upsert('uid-3', { uid: 'uid-3' }, ttl);
        writes.push(`Session ${await failureCount(db, id)}`);
        await adapter('Interaction').upsert('uid-other', { uid: 'uid-other' }, ttl);
        writes.push(`other Interaction ${await failureCount(db, id)}`);
        await adapter('Interaction').upsert('uid-3', { uid: 'uid-3' }, ttl);
        writes.push(`Interaction ${await failureCount(db, id)}`);
        await recordFailure(db, id, T0, POLICY);
        await adapter('Interaction').upsert('uid-3', { uid: 'uid-3', again: true }, ttl);
        writes.push(`Interaction again ${await failureCount(db, id)}`);
      }),
      TEN_MINUTES,
      record(id, accountId),
    );
    expect(writes).toEqual(['Session 1', 'other Interaction 1', 'Interaction 0', 'Interaction again 1']);
    expect(await loginRows(db, accountId)).toEqual([{ event: 'login', outcome: 'success' }]);
  });

  it('is refused when the save never reached the storage adapter, which then wrote nothing', async () => {
    const { db } = testDb();
    const id = `sign-in-result-${++serial}`;
    const accountId = randomUUID(); // whose audit rows the test reads
    await recordFailure(db, id, T0, POLICY);
    await expect(
      saveSignInResult(
        interaction('uid-4', async () => {}),
        TEN_MINUTES,
        record(id, accountId),
      ),
    ).rejects.toThrow('Interaction uid-4 was saved without its sign-in record');
    expect(await failureCount(db, id)).toBe(1);
    expect(await loginRows(db, accountId)).toEqual([]);
  });

  it('lifts the lock its own claim took: the 5th attempt of a threshold of 5, whose password was right', async () => {
    const { db } = testDb();
    const id = `sign-in-result-${++serial}`;
    const accountId = randomUUID(); // whose audit rows the test reads
    for (let n = 1; n <= 4; n++) await recordFailure(db, id, T0, POLICY);
    expect(await recordFailure(db, id, T0, POLICY)).toEqual({ locked: true, lockedNow: true });

    await saveSignInResult(interaction('uid-6'), TEN_MINUTES, record(id, accountId, T0));

    expect(await counter(db, id)).toBeNull();
    expect(await loginRows(db, accountId)).toEqual([{ event: 'login', outcome: 'success' }]);
  });

  it('leaves a lock standing that attempts counted after its claim took: the success still goes on record', async () => {
    const { db } = testDb();
    const id = `sign-in-result-${++serial}`;
    const accountId = randomUUID(); // whose audit rows the test reads
    // Places 1 to 5 counted, the 5th locking (threshold 5): the success's claim was an earlier one,
    // which took no lock, and the attempts after it were counted while its password was checked.
    for (let n = 1; n <= 4; n++) await recordFailure(db, id, T0, POLICY);
    expect(await recordFailure(db, id, T0, POLICY)).toEqual({ locked: true, lockedNow: true });

    await saveSignInResult(interaction('uid-7'), TEN_MINUTES, record(id, accountId));

    expect(await counter(db, id)).toEqual({ count: 5, locked: true });
    expect(await loginRows(db, accountId)).toEqual([{ event: 'login', outcome: 'success' }]);
    const saved = await findLivePayload(db, clock, 'Interaction', 'id', 'uid-7');
    expect(saved?.payload).toMatchObject({ result: { login: { accountId: 'a1' } } });
  });

  it('leaves a lock standing that was taken again after its own had ended (an unlock link used meanwhile)', async () => {
    const { db } = testDb();
    const id = `sign-in-result-${++serial}`;
    const accountId = randomUUID(); // whose audit rows the test reads
    // The success's claim took the lock at T0 (the 5th of threshold 5); while its password was
    // checked the lock was ended, and five guesses a minute later locked the identifier again.
    for (let n = 1; n <= 5; n++) await recordFailure(db, id, T0, POLICY);
    await clearFailures(db, id);
    const T1 = new Date(T0.getTime() + 60_000);
    for (let n = 1; n <= 5; n++) await recordFailure(db, id, T1, POLICY);

    await saveSignInResult(interaction('uid-9'), TEN_MINUTES, record(id, accountId, T0));

    expect(await counter(db, id)).toEqual({ count: 5, locked: true });
  });

  it('clears a count that others raised after its claim while no lock was taken', async () => {
    const { db } = testDb();
    const id = `sign-in-result-${++serial}`;
    const accountId = randomUUID(); // whose audit rows the test reads
    for (let n = 1; n <= 4; n++) await recordFailure(db, id, T0, POLICY);
    expect(await counter(db, id)).toEqual({ count: 4, locked: false });

    await saveSignInResult(interaction('uid-8'), TEN_MINUTES, record(id, accountId));

    expect(await counter(db, id)).toBeNull();
  });

  it('of a sign-in upstream (no identifier) clears no count', async () => {
    const { db } = testDb();
    const id = `sign-in-result-${++serial}`;
    const accountId = randomUUID(); // whose audit rows the test reads
    await recordFailure(db, id, T0, POLICY);
    await saveSignInResult(interaction('uid-5'), TEN_MINUTES, record(null, accountId));
    expect(await failureCount(db, id)).toBe(1);
    expect(await loginRows(db, accountId)).toEqual([{ event: 'login', outcome: 'success' }]);
  });
});

describe('attemptLogin used on its own (no interaction to finish)', () => {
  it('puts a success on record in a statement of its own: the count cleared, its audit row written', async () => {
    const { db } = testDb();
    const email = `alone-${++serial}@example.com`;
    const account = await createAccount(db, email, 'Correct-Horse-42');
    const login = createLoginDeps(testConfig({ LOCKOUT_THRESHOLD: '5' }), {
      db,
      clock,
      onLocked: async () => {},
    });
    const attempt = (password: string) =>
      attemptLogin(login, { email, password, ip: '192.0.2.1', language: 'en' });
    expect(await attempt('Wrong-Horse-42')).toEqual({ outcome: 'failed' });
    expect(await failureCount(db, identifierHash(email))).toBe(1);

    expect(await attempt('Correct-Horse-42')).toMatchObject({ outcome: 'authenticated' });
    expect(await failureCount(db, identifierHash(email))).toBe(0);
    expect(await loginRows(db, account.id)).toEqual([
      { event: 'login', outcome: 'failure' },
      { event: 'login', outcome: 'success' },
    ]);
  });
});

describe('a success while others lock the address (threshold 5)', () => {
  /**
   * Signs `email` in with the right password while, during its password check, four wrong ones are
   * counted after it (the 2nd to 5th places: the 5th locks), then tries the right password again.
   */
  async function overlapped(db: Db, email: string, recordSuccess?: SuccessRecorder) {
    let overlapping = true;
    const login = createLoginDeps(testConfig({ LOCKOUT_THRESHOLD: '5', LOCKOUT_MINUTES: '60' }), {
      db,
      clock,
      onLocked: async () => {},
      verifyHash: async (stored, password) => {
        if (overlapping && password === 'Correct-Horse-42') {
          overlapping = false;
          for (let n = 0; n < 4; n++) await attempt('Wrong-Horse-42');
        }
        return verifyArgon2(stored, password);
      },
    });
    const attempt = (password: string) =>
      attemptLogin(login, { email, password, ip: '192.0.2.1', language: 'en' }, recordSuccess);
    const first = await attempt('Correct-Horse-42');
    return { first, again: await attempt('Correct-Horse-42') };
  }

  it('on its own statement: the right password of the 5th attempt, which took the lock, lifts it', async () => {
    const { db } = testDb();
    const email = `own-lock-${++serial}@example.com`;
    await createAccount(db, email, 'Correct-Horse-42');
    const login = createLoginDeps(testConfig({ LOCKOUT_THRESHOLD: '5', LOCKOUT_MINUTES: '60' }), {
      db,
      clock,
      onLocked: async () => {},
    });
    const attempt = (password: string) =>
      attemptLogin(login, { email, password, ip: '192.0.2.1', language: 'en' });
    for (let n = 1; n <= 4; n++) expect(await attempt('Wrong-Horse-42')).toEqual({ outcome: 'failed' });
    expect(await attempt('Correct-Horse-42')).toMatchObject({ outcome: 'authenticated' });
    expect(await counter(db, identifierHash(email))).toBeNull();
    expect(await attempt('Correct-Horse-42')).toMatchObject({ outcome: 'authenticated' });
  });

  it('on its own statement: signs in, and the lock the wrong ones took stands', async () => {
    const { db } = testDb();
    const email = `overlapped-${++serial}@example.com`;
    await createAccount(db, email, 'Correct-Horse-42');
    const { first, again } = await overlapped(db, email);
    expect(first).toMatchObject({ outcome: 'authenticated' });
    expect(again).toEqual({ outcome: 'locked' });
    expect(await counter(db, identifierHash(email))).toEqual({ count: 5, locked: true });
  });

  it('with an interaction to finish: the same', async () => {
    const { db } = testDb();
    const email = `overlapped-${++serial}@example.com`;
    await createAccount(db, email, 'Correct-Horse-42');
    const { first, again } = await overlapped(db, email, (account, signIn) =>
      saveSignInResult(
        interaction(`uid-${email}`, (ttl) =>
          adapter('Interaction').upsert(
            `uid-${email}`,
            { result: { login: { accountId: account.id } } },
            ttl,
          ),
        ),
        TEN_MINUTES,
        signIn,
      ),
    );
    expect(first).toMatchObject({ outcome: 'authenticated' });
    expect(again).toEqual({ outcome: 'locked' });
    expect(await counter(db, identifierHash(email))).toEqual({ count: 5, locked: true });
  });
});

const service = useTestService({
  setUp: async ({ db }) => {
    await registerTestClient(db);
    await createAccount(db, 'ada@example.com', 'Correct-Horse-42');
  },
});

describe('POST /api/login with the right password', () => {
  const email = 'ada@example.com';
  const successRows = (db: Db) =>
    db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'login'), eq(auditEvents.outcome, 'success')));

  it('puts the sign-in on record only with its result: when the interaction cannot take it, no audit row and the count stays', async () => {
    const { app, db } = service();
    const browser = new TestBrowser(app);
    const auth = await startAuthorization(browser);
    await browser.loadSpa();
    const attempt = (Password: string) =>
      browser.post('/api/login', { Username: email, Password, ReturnUrl: auth.returnUrl });
    expect((await attempt('Wrong-Horse-42')).json()).toMatchObject({ isAuthenticated: false });

    await interactionsRefusingResults(db, async () => {
      expect((await attempt('Correct-Horse-42')).statusCode).toBe(500);
    });
    // The wrong password and the unfinished success: both counted, neither cleared, neither a success.
    expect(await failureCount(db, identifierHash(email))).toBe(2);
    expect(await successRows(db)).toEqual([]);
    const uid = auth.returnUrl.split('/').at(-1)?.split('?')[0] ?? '';
    const stored = await findLivePayload(db, clock, 'Interaction', 'id', uid);
    expect(stored?.payload).not.toHaveProperty('result');

    // Nor when the audit row cannot be written: no result.
    await auditRefusingSuccess(db, async () => {
      expect((await attempt('Correct-Horse-42')).statusCode).toBe(500);
    });
    expect(await failureCount(db, identifierHash(email))).toBe(3);
    expect((await findLivePayload(db, clock, 'Interaction', 'id', uid))?.payload).not.toHaveProperty(
      'result',
    );

    // Nothing was lost: the same sign-in succeeds once both can be written, and clears the count.
    expect((await attempt('Correct-Horse-42')).json()).toMatchObject({ isAuthenticated: true });
    expect(await failureCount(db, identifierHash(email))).toBe(0);
    expect(await successRows(db)).toHaveLength(1);
    const signedIn = await findLivePayload(db, clock, 'Interaction', 'id', uid);
    expect(signedIn?.payload).toHaveProperty('result.login.amr', ['pwd']);
  });
});

const UNKNOWN_PROVIDER = 'c0ffee00-0000-4000-8000-000000000003';

/** A resume's context as findAccount sees it: the interaction's result and the browser's session. */
function resuming(result: unknown): KoaContextWithOIDC {
  return { oidc: { entities: { Interaction: { result } }, session: {} } } as unknown as KoaContextWithOIDC;
}

describe('a resumed sign-in, checked again after the resume wrote its session', () => {
  const changedAt = new Date('2026-02-01T09:00:00Z');
  const account = {
    id: 'a3f1c2d4-0000-4000-8000-000000000001',
    passwordChangedAt: changedAt,
    mustChangePassword: false,
    disabledAt: null,
    sessionsEnded: 2,
    updatedAt: changedAt,
    externalIdpId: null,
    externalSubject: null,
  };
  const resumed = {
    accountId: account.id,
    passwordSeen: changedAt.toISOString(),
    sessionsEnded: 2,
    accountUpdatedAt: changedAt.getTime(),
  };

  it('stands while the account is there, enabled, with the same password and an unchanged row', () => {
    expect(signInStillBound(account, resumed)).toBe(true);
  });

  it('does not stand once the account is gone, disabled, has another password or changed at all', () => {
    const later = new Date(changedAt.getTime() + 1);
    expect(signInStillBound(null, resumed)).toBe(false);
    // Each alone, the row's time unchanged: a change made without touching it still counts.
    expect(signInStillBound({ ...account, disabledAt: later }, resumed)).toBe(false);
    expect(signInStillBound({ ...account, passwordChangedAt: later }, resumed)).toBe(false);
    expect(signInStillBound({ ...account, mustChangePassword: true }, resumed)).toBe(false);
    expect(signInStillBound({ ...account, sessionsEnded: 3 }, resumed)).toBe(false);
    expect(signInStillBound({ ...account, updatedAt: later }, resumed)).toBe(false);
  });

  it("is forgotten at the resume once the account's sessions were ended since, though nothing else changed", () => {
    expect(forgetOutdatedSignIn(resuming(boundLoginResult(account, ['pwd'])), account)).toBe(false);
    const ended = { ...account, sessionsEnded: 3 };
    expect(forgetOutdatedSignIn(resuming(boundLoginResult(account, ['pwd'])), ended)).toBe(true);
  });

  it('stored before the count existed (the last release), is judged by its password alone', () => {
    const { sessionsEnded: _, ...stored } = boundLoginResult(account, ['pwd']).login;
    const later = new Date(changedAt.getTime() + 1);
    expect(forgetOutdatedSignIn(resuming({ login: stored }), { ...account, sessionsEnded: 3 })).toBe(false);
    expect(forgetOutdatedSignIn(resuming({ login: stored }), { ...account, passwordChangedAt: later })).toBe(
      true,
    );
  });

  it('stored upstream before the count existed, is judged by the provider and subject that vouched for it', () => {
    const providerId = 'b1c2d3e4-0000-4000-8000-000000000002';
    const upstream = { providerId, subject: 'sub-kim', authTime: undefined };
    const { sessionsEnded: _, ...stored } = boundLoginResult(account, ['fed'], upstream).login;
    const linked = { ...account, externalIdpId: providerId, externalSubject: 'sub-kim' };
    expect(forgetOutdatedSignIn(resuming({ login: stored }), linked)).toBe(false);
    expect(forgetOutdatedSignIn(resuming({ login: stored }), account)).toBe(true);
    expect(
      forgetOutdatedSignIn(resuming({ login: stored }), { ...linked, externalSubject: 'sub-other' }),
    ).toBe(true);
    expect(
      forgetOutdatedSignIn(resuming({ login: stored }), { ...linked, externalIdpId: UNKNOWN_PROVIDER }),
    ).toBe(true);
  });

  it('is checked outside a protocol request without noting anything or failing', () => {
    const ctx = {
      oidc: { entities: { Interaction: { result: boundLoginResult(account, ['pwd']) } }, session: {} },
    } as unknown as KoaContextWithOIDC;
    expect(forgetOutdatedSignIn(ctx, account)).toBe(false);
  });
});
