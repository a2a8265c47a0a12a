import { VerificationType } from '@keycard/contract';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  clearFailures,
  deleteAccount,
  failureCount,
  replaceEmail,
  setDisabled,
} from '../src/accounts/account-repository.ts';
import { identifierHash } from '../src/accounts/identifiers.ts';
import { isLocked, recordFailure } from '../src/accounts/lockout.ts';
import { attemptLogin, createLoginDeps } from '../src/accounts/login.ts';
import { type HashVerifier, verifyArgon2 } from '../src/accounts/password-hash.ts';
import { resetPassword } from '../src/recovery/reset-password.ts';
import { unlockAccount } from '../src/recovery/unlock-account.ts';
import { queueUnlockMail } from '../src/recovery/unlock-mail.ts';
import type { Db } from '../src/store/database.ts';
import { accounts, auditEvents, verificationCodes } from '../src/store/tables/index.ts';
import {
  codeOf,
  DEFAULT_REDIRECT,
  freshIp,
  issueResetCode,
  NEW_PASSWORD,
  PUBLIC_URL,
  recoveryDeps,
  STRONG,
} from './recovery-kit.ts';
import { testConfig } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';
import { createAccount } from './support/oidc-flow.ts';
import { holdTransaction, releaseOnceWaitedFor } from './support/open-transaction.ts';

const testDb = useTestDatabase();
const POLICY = { threshold: 2, minutes: 0 };
let serial = 0;

/** An account whose identifier is locked (until unlocked), with its unlock code. */
async function lockedAccount(deps: ReturnType<typeof recoveryDeps>) {
  serial += 1;
  const account = await createAccount(testDb().db, `unlock-${serial}@example.com`, STRONG, 'Ada Lovelace');
  const now = await deps.clock.now();
  for (let n = 0; n < POLICY.threshold; n++)
    await recordFailure(testDb().db, identifierHash(account.email), now, POLICY);
  const code = await issueResetCode(deps, account.id, VerificationType.LockedAfterTooManyFailedAttempts);
  return { account, code };
}

async function unlockEvents(accountId: string) {
  return testDb()
    .db.select()
    .from(auditEvents)
    .where(and(eq(auditEvents.event, 'unlock'), eq(auditEvents.accountId, accountId)));
}

/**
 * An account and sign-ins with a wrong password under LOCKOUT_THRESHOLD 2 (the second locks), whose
 * lock queues the unlock mail as the service does; `nudges` counts the mail worker's wake-ups.
 */
async function lockingSignIns(
  deps: ReturnType<typeof recoveryDeps>,
  name: string,
  verifyHash?: HashVerifier,
) {
  serial += 1;
  const account = await createAccount(testDb().db, `${name}-${serial}@example.com`, STRONG);
  let nudges = 0;
  const login = createLoginDeps(testConfig({ LOCKOUT_THRESHOLD: '2' }), {
    db: testDb().db,
    clock: deps.clock,
    verifyHash,
    onLocked: queueUnlockMail({ ...deps, clockIn: () => deps.clock }),
    nudgeMail: () => {
      nudges += 1;
    },
  });
  const wrong = () =>
    attemptLogin(login, {
      email: account.email,
      password: 'Wrong-Password-1',
      ip: freshIp(),
      language: 'en',
    });
  return { account, wrong, nudges: () => nudges };
}

/** The account's verification codes, of any type. */
function codesOf(accountId: string) {
  return testDb().db.select().from(verificationCodes).where(eq(verificationCodes.accountId, accountId));
}

describe('unlock by e-mailed link (SPEC §4, DESIGN §2)', () => {
  it('clears the lock and the failure count and names the user', async () => {
    const deps = recoveryDeps(testDb().db);
    const { account, code } = await lockedAccount(deps);
    const id = identifierHash(account.email);
    expect(await isLocked(testDb().db, id, await deps.clock.now())).toBe(true);
    expect(await unlockAccount(deps, { code, ip: freshIp() })).toEqual({
      outcome: 'unlocked',
      userName: 'Ada Lovelace',
      redirectUrl: DEFAULT_REDIRECT,
    });
    expect(await isLocked(testDb().db, id, await deps.clock.now())).toBe(false);
    expect(await failureCount(testDb().db, id)).toBe(0);
  });

  it('still shows success when opened again (a mail scanner first), recording the unlock once', async () => {
    const deps = recoveryDeps(testDb().db);
    const { account, code } = await lockedAccount(deps);
    const scanner = await unlockAccount(deps, { code, ip: freshIp() });
    const person = await unlockAccount(deps, { code, ip: freshIp() });
    expect(scanner.outcome).toBe('unlocked');
    expect(person).toEqual(scanner);
    expect(await unlockEvents(account.id)).toHaveLength(1);
  });

  it('records the unlock as a success by link, with the client address', async () => {
    const deps = recoveryDeps(testDb().db);
    const { account, code } = await lockedAccount(deps);
    const ip = freshIp();
    await unlockAccount(deps, { code, ip });
    const [event] = await unlockEvents(account.id);
    expect(event).toMatchObject({ outcome: 'success', ip, detail: { via: 'link' } });
  });

  it('works one second before 60 minutes and answers expired at the very instant (DESIGN §2 Codes: unlock 60 min)', async () => {
    const deps = recoveryDeps(testDb().db);
    const first = await lockedAccount(deps);
    const second = await lockedAccount(deps);
    deps.clock.advance(60 * 60_000 - 1000);
    expect((await unlockAccount(deps, { code: first.code, ip: freshIp() })).outcome).toBe('unlocked');
    deps.clock.advance(1000);
    expect(await unlockAccount(deps, { code: second.code, ip: freshIp() })).toEqual({ outcome: 'expired' });
    const now = await deps.clock.now();
    expect(await isLocked(testDb().db, identifierHash(second.account.email), now)).toBe(true);
  });

  it('answers expired for a link replaced by a newer unlock mail, and the newer link unlocks', async () => {
    const deps = recoveryDeps(testDb().db);
    const { account, code } = await lockedAccount(deps);
    const newer = await issueResetCode(deps, account.id, VerificationType.LockedAfterTooManyFailedAttempts);
    expect(await unlockAccount(deps, { code, ip: freshIp() })).toEqual({ outcome: 'expired' });
    const id = identifierHash(account.email);
    expect(await isLocked(testDb().db, id, await deps.clock.now())).toBe(true);
    expect((await unlockAccount(deps, { code: newer, ip: freshIp() })).outcome).toBe('unlocked');
  });

  it('answers invalid without looking once the client address has presented 20 wrong codes', async () => {
    const deps = recoveryDeps(testDb().db);
    const { account, code } = await lockedAccount(deps);
    const ip = freshIp();
    // DESIGN §2 Codes: 20 wrong codes per IP in 15 minutes.
    for (let n = 0; n < 20; n++) {
      expect(await unlockAccount(deps, { code: `guess-${n}`, ip })).toEqual({ outcome: 'invalid' });
    }
    expect(await unlockAccount(deps, { code, ip })).toEqual({ outcome: 'invalid' });
    const id = identifierHash(account.email);
    expect(await isLocked(testDb().db, id, await deps.clock.now())).toBe(true);
    expect((await unlockAccount(deps, { code, ip: freshIp() })).outcome).toBe('unlocked');
  });

  it('does not lift a newer lock when an already used link is opened again, and says it expired', async () => {
    const deps = recoveryDeps(testDb().db);
    const { account, code } = await lockedAccount(deps);
    await unlockAccount(deps, { code, ip: freshIp() });
    const now = await deps.clock.now();
    for (let n = 0; n < POLICY.threshold; n++)
      await recordFailure(testDb().db, identifierHash(account.email), now, POLICY);
    expect((await unlockAccount(deps, { code, ip: freshIp() })).outcome).toBe('expired');
    expect(await isLocked(testDb().db, identifierHash(account.email), now)).toBe(true);
  });

  it('answers expired one second after the lifetime, also for a link already used', async () => {
    const deps = recoveryDeps(testDb().db);
    const { code } = await lockedAccount(deps);
    const unused = (await lockedAccount(deps)).code;
    await unlockAccount(deps, { code, ip: freshIp() });
    deps.clock.advance(60 * 60_000 + 1000); // DESIGN §2 Codes: unlock 60 min
    expect(await unlockAccount(deps, { code, ip: freshIp() })).toEqual({ outcome: 'expired' });
    expect(await unlockAccount(deps, { code: unused, ip: freshIp() })).toEqual({ outcome: 'expired' });
  });

  it('answers invalid for an unknown code and for codes of other types', async () => {
    const deps = recoveryDeps(testDb().db);
    const { account } = await lockedAccount(deps);
    const reset = await issueResetCode(deps, account.id, VerificationType.PasswordReset);
    const change = await issueResetCode(deps, account.id, VerificationType.EmailChanged, {
      newEmail: 'n@example.com',
    });
    for (const code of ['no-such-code', reset, change]) {
      expect(await unlockAccount(deps, { code, ip: freshIp() })).toEqual({ outcome: 'invalid' });
    }
    expect(await isLocked(testDb().db, identifierHash(account.email), await deps.clock.now())).toBe(true);
  });

  it('refuses an unlock code in a password reset', async () => {
    const deps = recoveryDeps(testDb().db);
    const { code } = await lockedAccount(deps);
    expect(
      await resetPassword(deps, { code, type: 3, newPassword: NEW_PASSWORD, ip: freshIp(), language: 'en' }),
    ).toEqual({ outcome: 'invalid' });
    expect(
      await resetPassword(deps, { code, type: 1, newPassword: NEW_PASSWORD, ip: freshIp(), language: 'en' }),
    ).toEqual({ outcome: 'invalid' });
  });

  it('keeps only an allowed RedirectUrl', async () => {
    const deps = recoveryDeps(testDb().db);
    const { code } = await lockedAccount(deps);
    const allowed = await unlockAccount(deps, {
      code,
      ip: freshIp(),
      redirectUrl: `${PUBLIC_URL}/after?x=1`,
    });
    expect(allowed).toMatchObject({ redirectUrl: `${PUBLIC_URL}/after?x=1` });
    const foreign = await unlockAccount(deps, { code, ip: freshIp(), redirectUrl: 'https://evil.test/' });
    expect(foreign).toMatchObject({ redirectUrl: DEFAULT_REDIRECT });
  });

  it('allows a RedirectUrl on the origin of PUBLIC_URL and on that of DEFAULT_REDIRECT_URL', async () => {
    const deps = recoveryDeps(testDb().db, { defaultRedirectUrl: 'https://portal.example/start' });
    const { code } = await lockedAccount(deps);
    const unlock = (redirectUrl: string) => unlockAccount(deps, { code, ip: freshIp(), redirectUrl });
    expect(await unlock(`${PUBLIC_URL}/after`)).toMatchObject({ redirectUrl: `${PUBLIC_URL}/after` });
    expect(await unlock('https://portal.example/other')).toMatchObject({
      redirectUrl: 'https://portal.example/other',
    });
    expect(await unlock('https://evil.test/')).toMatchObject({ redirectUrl: 'https://portal.example/start' });
  });

  it('queues the unlock mail of a lock with a PUBLIC_URL link whose code unlocks', async () => {
    const deps = recoveryDeps(testDb().db);
    serial += 1;
    const account = await createAccount(
      testDb().db,
      `locked-mail-${serial}@example.com`,
      STRONG,
      'Ada Lovelace',
    );
    const onLocked = queueUnlockMail({ ...deps, publicUrl: PUBLIC_URL, clockIn: () => deps.clock });
    // The account has no language of its own: the failed sign-in's language decides.
    await testDb().db.transaction((tx) => onLocked(tx, account, 'de'));
    expect(deps.mail.queued.find((queued) => queued.kind === 'unlock')?.language).toBe('de');
    const [mail] = deps.mail.of('unlock', account.email);
    expect(mail?.userName).toBe('Ada Lovelace');
    expect(mail?.link).toMatch(new RegExp(`^${PUBLIC_URL}/unlock/[\\w-]{43}$`));
    expect((await unlockAccount(deps, { code: codeOf(mail?.link ?? ''), ip: freshIp() })).outcome).toBe(
      'unlocked',
    );
  });

  it('queues neither mail nor code for an undeliverable address, and wakes no worker inside the transaction', async () => {
    const deps = recoveryDeps(testDb().db);
    serial += 1;
    const deliverable = await createAccount(testDb().db, `locked-mail-${serial}@example.com`, STRONG);
    const undeliverable = await createAccount(testDb().db, `locked-${serial}@localhost`, STRONG);
    const onLocked = queueUnlockMail({ ...deps, clockIn: () => deps.clock });
    await testDb().db.transaction((tx) => onLocked(tx, deliverable, 'en'));
    await testDb().db.transaction((tx) => onLocked(tx, undeliverable, 'en'));
    expect(deps.mail.queued.map((queued) => queued.to)).toEqual([deliverable.email]);
    // Woken inside, the worker could look before the commit and find nothing (the sign-in wakes it after).
    expect(deps.mail.nudges).toBe(0);
    const codes = await testDb()
      .db.select()
      .from(verificationCodes)
      .where(eq(verificationCodes.accountId, undeliverable.id));
    expect(codes).toEqual([]);
  });

  it('a sign-in that locks wakes the mail worker once, after the transaction that queued the unlock mail', async () => {
    const deps = recoveryDeps(testDb().db);
    serial += 1;
    const account = await createAccount(testDb().db, `locked-nudge-${serial}@example.com`, STRONG);
    const events: string[] = [];
    const db = testDb().db;
    // The database as the sign-in sees it, telling when each of its transactions has committed.
    const watched: Db = Object.create(db, {
      transaction: {
        value: async (work: Parameters<Db['transaction']>[0]) => {
          const result = await db.transaction(work);
          events.push('committed');
          return result;
        },
      },
    });
    const queue = queueUnlockMail({ ...deps, clockIn: () => deps.clock });
    const login = createLoginDeps(testConfig({ LOCKOUT_THRESHOLD: '2' }), {
      db: watched,
      clock: deps.clock,
      onLocked: async (tx, locked, language) => {
        await queue(tx, locked, language);
        events.push('queued');
      },
      nudgeMail: () => events.push('nudged'),
    });
    for (let attempt = 0; attempt < 3; attempt++) {
      await attemptLogin(login, {
        email: account.email,
        password: 'Wrong-Password-1',
        ip: freshIp(),
        language: 'en',
      });
    }
    const queued = events.indexOf('queued');
    expect(events.slice(queued, queued + 3)).toEqual(['queued', 'committed', 'nudged']);
    expect(events.filter((event) => event === 'nudged')).toHaveLength(1);
    expect(deps.mail.of('unlock', account.email)).toHaveLength(1);
  });

  it('a sign-in that locks while an unlock holds the account waits for it, neither failing, and mails no link for the lifted lock', async () => {
    const deps = recoveryDeps(testDb().db);
    const { account, wrong, nudges } = await lockingSignIns(deps, 'locked-race');
    const identifier = identifierHash(account.email);
    expect(await wrong()).toEqual({ outcome: 'failed' });
    // The order of an unlock by link (unlock-account.ts), as of a confirmed change of address and a
    // deletion: the account first, its failures after.
    const unlocking = holdTransaction(
      testDb().db,
      async (tx) => {
        await tx.select().from(accounts).where(eq(accounts.id, account.id)).for('update');
      },
      (tx) => clearFailures(tx, identifier),
    );
    await unlocking.held;
    // The 2nd failure locks (LOCKOUT_THRESHOLD 2). On PostgreSQL its lock's transaction waits for the
    // account; had it claimed the counter's row first, the unlock's clearing would wait for it in turn
    // ("deadlock detected"). PGlite runs one transaction at a time: there the attempt follows the
    // clearing and starts a count of its own, 1 of 2.
    const locking = wrong();
    await releaseOnceWaitedFor(testDb(), unlocking);
    await expect(unlocking.done).resolves.toBeUndefined();
    expect(await locking).toEqual({ outcome: testDb().kind === 'postgres' ? 'locked' : 'failed' });
    expect(await isLocked(testDb().db, identifier, await deps.clock.now())).toBe(false);
    expect(deps.mail.of('unlock', account.email)).toEqual([]);
    // Nothing was queued, so the mail worker is not woken for it.
    expect(nudges()).toBe(0);
    expect(await codesOf(account.id)).toEqual([]);
  });

  /** What can happen to an account while the attempt that locks it has its password checked. */
  const meanwhile: [string, (account: { id: string; email: string }) => Promise<unknown>][] = [
    [
      'its lock was lifted and a new count started',
      async ({ email }) => {
        await clearFailures(testDb().db, identifierHash(email));
        await recordFailure(testDb().db, identifierHash(email), new Date(), POLICY);
      },
    ],
    ['it was disabled', ({ id }) => setDisabled(testDb().db, id, true)],
    ['it moved to another address', ({ id }) => replaceEmail(testDb().db, id, `moved-${id}@example.com`)],
    ['it was deleted', ({ id }) => deleteAccount(testDb().db, id)],
  ];

  it.each(meanwhile)(
    'a sign-in that locks an account mails no unlock link when %s while its password was checked',
    async (_what, change) => {
      const deps = recoveryDeps(testDb().db);
      // The locking attempt's password check waits until the account has changed.
      let changed: () => void = () => {};
      const checked = new Promise<void>((resolve) => {
        changed = resolve;
      });
      let checking: () => void = () => {};
      const reached = new Promise<void>((resolve) => {
        checking = resolve;
      });
      let calls = 0;
      const verifyHash: HashVerifier = async (stored, password) => {
        calls += 1;
        if (calls === 2) {
          checking();
          await checked;
        }
        return verifyArgon2(stored, password);
      };
      const { account, wrong, nudges } = await lockingSignIns(deps, 'locked-meanwhile', verifyHash);
      expect(await wrong()).toEqual({ outcome: 'failed' });
      const locking = wrong();
      await reached;
      await change(account);
      changed();
      expect(await locking).toEqual({ outcome: 'locked' });
      expect(deps.mail.queued).toEqual([]);
      expect(nudges()).toBe(0);
      expect(await codesOf(account.id)).toEqual([]);
    },
  );

  it('a count started after a lifted lock still mails the unlock link of its own lock', async () => {
    const deps = recoveryDeps(testDb().db);
    const { account, wrong } = await lockingSignIns(deps, 'locked-again');
    await wrong();
    expect(await wrong()).toEqual({ outcome: 'locked' });
    await clearFailures(testDb().db, identifierHash(account.email));
    deps.clock.advance(1000);
    await wrong();
    expect(await wrong()).toEqual({ outcome: 'locked' });
    expect(deps.mail.of('unlock', account.email)).toHaveLength(2);
  });
});
