import { VerificationType } from '@keycard/contract';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  deleteAccount,
  findAccountById,
  replaceEmail,
  setDisabled,
  storePassword,
} from '../src/accounts/account-repository.ts';
import { hashPassword, verifyPassword } from '../src/accounts/password-hash.ts';
import { supersedeCodes } from '../src/codes/code-repository.ts';
import { CODES_OF_AN_ADDRESS, codeHash, issueCodeUntil } from '../src/codes/codes.ts';
import { checkVerification } from '../src/recovery/check-verification.ts';
import { confirmNewEmail } from '../src/recovery/confirm-new-email.ts';
import { requestPasswordReset } from '../src/recovery/forgot-password.ts';
import { resetPassword } from '../src/recovery/reset-password.ts';
import { unlockAccount } from '../src/recovery/unlock-account.ts';
import {
  accounts,
  auditEvents,
  oidcClients,
  passwordHistory,
  upstreamProviders,
  verificationCodes,
} from '../src/store/tables/index.ts';
import {
  freshIp,
  issueResetCode,
  NEW_PASSWORD,
  recoveryDeps,
  STRONG,
  withMeanwhile,
} from './recovery-kit.ts';
import { useTestDatabase } from './support/database.ts';
import { createAccount } from './support/oidc-flow.ts';
import { againstOpenTransaction, holdTransaction, releaseOnceWaitedFor } from './support/open-transaction.ts';

const testDb = useTestDatabase();
let serial = 0;

async function account() {
  serial += 1;
  return createAccount(testDb().db, `codes-${serial}@example.com`, STRONG, 'Ada Lovelace');
}

function reset(deps: ReturnType<typeof recoveryDeps>, code: string, type: VerificationType = 1) {
  return resetPassword(deps, { code, type, newPassword: NEW_PASSWORD, ip: freshIp(), language: 'en' });
}

/** The account's audit rows of `events`. */
function auditOf(accountId: string, events: string[]) {
  return testDb()
    .db.select()
    .from(auditEvents)
    .where(and(eq(auditEvents.accountId, accountId), inArray(auditEvents.event, events)));
}

describe('verification codes in the recovery flows (DESIGN §2 Codes)', () => {
  it('stores only the SHA-256 of a code', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const code = await issueResetCode(deps, id);
    const rows = await testDb()
      .db.select()
      .from(verificationCodes)
      .where(eq(verificationCodes.accountId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.codeHash).toBe(codeHash(code));
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it('accepts a reset code until its lifetime ends and rejects it one second later', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const code = await issueResetCode(deps, id);
    const lifetime = 60 * 60_000; // DESIGN §2 Codes: PasswordReset 60 min
    deps.clock.advance(lifetime - 1000);
    expect(await checkVerification(deps, { code, type: 1, ip: freshIp() })).toEqual({
      isValid: true,
      userName: 'Ada Lovelace',
    });
    deps.clock.advance(2000);
    expect(await checkVerification(deps, { code, type: 1, ip: freshIp() })).toEqual({
      isValid: false,
      userName: null,
    });
    expect(await reset(deps, code)).toEqual({ outcome: 'invalid' });
  });

  it('rejects unlock and new-e-mail codes one second after they expire', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const unlock = await issueResetCode(deps, id, VerificationType.LockedAfterTooManyFailedAttempts);
    const change = await issueResetCode(deps, id, VerificationType.EmailChanged, {
      newEmail: 'moved@example.com',
    });
    deps.clock.advance(72 * 60 * 60_000 + 1000); // DESIGN §2 Codes: EmailChanged 72 h
    expect(await unlockAccount(deps, { code: unlock, ip: freshIp() })).toEqual({ outcome: 'expired' });
    expect(await confirmNewEmail(deps, { code: change, ip: freshIp(), language: 'en' })).toEqual({
      outcome: 'failed',
    });
  });

  it('spends a reset code once: a replay of the same link fails', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const code = await issueResetCode(deps, id);
    expect((await reset(deps, code)).outcome).toBe('reset');
    expect(await reset(deps, code)).toEqual({ outcome: 'invalid' });
    expect((await checkVerification(deps, { code, type: 1, ip: freshIp() })).isValid).toBe(false);
  });

  it('lets exactly one of 20 parallel resets with one code succeed', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const code = await issueResetCode(deps, id);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        resetPassword(deps, {
          code,
          type: 1,
          newPassword: `${NEW_PASSWORD}-${n}`,
          ip: freshIp(),
          language: 'en',
        }),
      ),
    );
    const winners = results.flatMap((result, n) => (result.outcome === 'reset' ? [n] : []));
    expect(winners).toHaveLength(1);
    expect(results.filter((result) => result.outcome === 'invalid')).toHaveLength(19);
    const stored = await findAccountById(testDb().db, id);
    expect(await verifyPassword(stored?.passwordHash ?? null, `${NEW_PASSWORD}-${winners[0]}`)).toBe(true);
    expect(deps.mail.of('password_changed')).toHaveLength(1);
  });

  it('lets a new reset code supersede the older one', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const older = await issueResetCode(deps, id);
    const newer = await issueResetCode(deps, id);
    expect((await checkVerification(deps, { code: older, type: 1, ip: freshIp() })).isValid).toBe(false);
    expect(await reset(deps, older)).toEqual({ outcome: 'invalid' });
    expect((await reset(deps, newer)).outcome).toBe('reset');
  });

  it('keeps one live reset link of two requested for an account at the same moment: the later one', async () => {
    const deps = recoveryDeps(testDb().db, { sleep: async () => {} });
    const { id, email } = await account();
    // The first request's transaction, held open after it wrote its code (forgot-password.ts).
    let first = '';
    const requesting = holdTransaction(testDb().db, async (tx) => {
      first = (await issueCodeUntil(tx, deps.clock, deps.codeLifetimes, { accountId: id, type: 1 })).code;
    });
    await requesting.held;
    // On PostgreSQL the second waits for its turn until the first transaction ends, and then
    // supersedes what it committed. (PGlite runs one transaction at a time.)
    const second = requestPasswordReset(deps, { email, ip: freshIp(), language: 'en' });
    await releaseOnceWaitedFor(testDb(), requesting);
    await requesting.done;
    await second;

    const codes = await testDb()
      .db.select({ codeHash: verificationCodes.codeHash, supersededAt: verificationCodes.supersededAt })
      .from(verificationCodes)
      .where(and(eq(verificationCodes.accountId, id), eq(verificationCodes.verificationType, 1)));
    const live = codes.filter((code) => code.supersededAt === null).map((code) => code.codeHash);
    expect(codes).toHaveLength(2);
    const [mail] = deps.mail.of('password_reset', email);
    const mailed = /\/resetPassword\/1\/([\w-]+)/.exec(mail?.link ?? '')?.[1] ?? '';
    expect(live).toEqual([codeHash(mailed)]);
    expect(live).not.toEqual([codeHash(first)]);
    expect(await reset(deps, first)).toEqual({ outcome: 'invalid' });
    expect((await reset(deps, mailed)).outcome).toBe('reset');
  });

  it('issues six codes of one type for an account at once, each in its own transaction, and leaves one live', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const issued = await Promise.all(
      Array.from({ length: 6 }, () =>
        issueCodeUntil(testDb().db, deps.clock, deps.codeLifetimes, { accountId: id, type: 1 }),
      ),
    );
    const codes = await testDb()
      .db.select({ id: verificationCodes.id, supersededAt: verificationCodes.supersededAt })
      .from(verificationCodes)
      .where(eq(verificationCodes.accountId, id));
    expect(codes.map((code) => code.id).sort()).toEqual(issued.map((code) => code.id).sort());
    expect(codes.filter((code) => code.supersededAt === null)).toHaveLength(1);
  });

  it('lets the codes of another account, or of another type, be issued while one account waits its turn', async () => {
    const deps = recoveryDeps(testDb().db);
    const held = await account();
    const other = await account();
    const issue = (accountId: string, type: 1 | 3) =>
      issueCodeUntil(testDb().db, deps.clock, deps.codeLifetimes, { accountId, type });
    const issuing = holdTransaction(testDb().db, async (tx) => {
      await issueCodeUntil(tx, deps.clock, deps.codeLifetimes, { accountId: held.id, type: 1 });
    });
    await issuing.held;
    try {
      // On PostgreSQL neither waits for the held transaction's turn. (PGlite runs one transaction at
      // a time: there they follow it.)
      const others = Promise.all([issue(other.id, 1), issue(held.id, 3)]);
      if (testDb().kind === 'postgres') {
        // Bounded, so that should they wait after all, the held transaction is still released.
        const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5_000));
        expect(await Promise.race([others.then((issued) => issued.length), waited])).toBe(2);
      }
      issuing.release();
      await others;
    } finally {
      issuing.release();
      await issuing.done;
    }
  });

  it('issues a code while a change of address holds the account and then retires its codes, neither waiting for the other for good', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    await issueResetCode(deps, id);
    const now = await deps.clock.now();
    // A confirmed change of address's order (confirm-new-email.ts): the account first, its codes after.
    const confirming = holdTransaction(
      testDb().db,
      async (tx) => {
        await tx.select().from(accounts).where(eq(accounts.id, id)).for('update');
      },
      async (tx) => {
        await supersedeCodes(tx, id, CODES_OF_AN_ADDRESS, now);
      },
    );
    await confirming.held;
    const issuing = issueCodeUntil(testDb().db, deps.clock, deps.codeLifetimes, { accountId: id, type: 1 });
    // On PostgreSQL the issue waits for the account before it touches a code. (PGlite runs one
    // transaction at a time: there it simply follows.)
    await releaseOnceWaitedFor(testDb(), confirming);
    await expect(confirming.done).resolves.toBeUndefined();
    const issued = await issuing;
    const live = await testDb()
      .db.select({ id: verificationCodes.id })
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.accountId, id),
          isNull(verificationCodes.consumedAt),
          isNull(verificationCodes.supersededAt),
        ),
      );
    expect(live).toEqual([{ id: issued.id }]);
  });

  it('refuses a reset code in unlock and in verify-new-e-mail, and leaves it usable', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const code = await issueResetCode(deps, id);
    expect(await unlockAccount(deps, { code, ip: freshIp() })).toEqual({ outcome: 'invalid' });
    expect(await confirmNewEmail(deps, { code, ip: freshIp(), language: 'en' })).toEqual({
      outcome: 'failed',
    });
    expect((await reset(deps, code)).outcome).toBe('reset');
  });

  it('accepts a code only for its own type', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const reset1 = await issueResetCode(deps, id, VerificationType.PasswordReset);
    const expired2 = await issueResetCode(deps, id, VerificationType.PasswordExpired);
    const invite6 = await issueResetCode(deps, id, VerificationType.VerifyUser);
    const unlock3 = await issueResetCode(deps, id, VerificationType.LockedAfterTooManyFailedAttempts);
    const check = async (code: string, type: VerificationType) =>
      (await checkVerification(deps, { code, type, ip: freshIp() })).isValid;
    expect([await check(reset1, 1), await check(reset1, 2), await check(reset1, 6)]).toEqual([
      true,
      false,
      false,
    ]);
    expect([await check(expired2, 2), await check(expired2, 1), await check(expired2, 6)]).toEqual([
      true,
      false,
      false,
    ]);
    expect([await check(invite6, 6), await check(invite6, 1), await check(invite6, 2)]).toEqual([
      true,
      false,
      false,
    ]);
    expect([await check(unlock3, 3), await check(unlock3, 1)]).toEqual([false, false]);
    expect(await reset(deps, unlock3, 3)).toEqual({ outcome: 'invalid' });
    expect(await reset(deps, reset1, 2)).toEqual({ outcome: 'invalid' });
  });

  it('spends the account’s other reset-type codes with a successful reset', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const reset1 = await issueResetCode(deps, id, VerificationType.PasswordReset);
    const expired2 = await issueResetCode(deps, id, VerificationType.PasswordExpired);
    const invite6 = await issueResetCode(deps, id, VerificationType.VerifyUser);
    expect((await reset(deps, reset1)).outcome).toBe('reset');
    for (const [code, type] of [
      [expired2, 2],
      [invite6, 6],
    ] as const) {
      expect((await checkVerification(deps, { code, type, ip: freshIp() })).isValid).toBe(false);
    }
  });

  it('answers invalid without looking once an IP has presented too many wrong codes', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const code = await issueResetCode(deps, id);
    const ip = freshIp();
    // DESIGN §2 Codes: 20 wrong codes per IP in 15 minutes, stated here rather than read from the code.
    for (let n = 0; n < 20; n++) {
      expect((await checkVerification(deps, { code: `guess-${n}`, type: 1, ip })).isValid).toBe(false);
    }
    expect(await checkVerification(deps, { code, type: 1, ip })).toEqual({ isValid: false, userName: null });
    expect(
      await resetPassword(deps, { code, type: 1, newPassword: NEW_PASSWORD, ip, language: 'en' }),
    ).toEqual({
      outcome: 'invalid',
    });
    expect((await checkVerification(deps, { code, type: 1, ip: freshIp() })).isValid).toBe(true);
  });

  it('counts the wrong codes of an IPv6 client by its /64, whichever of its addresses sends them', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const code = await issueResetCode(deps, id);
    // 20 wrong codes, each from another address of one /64.
    for (let n = 0; n < 20; n++) {
      const ip = `2001:db8:77:1::${(n + 1).toString(16)}`;
      expect((await checkVerification(deps, { code: `guess-v6-${n}`, type: 1, ip })).isValid).toBe(false);
    }
    const sameNetwork = '2001:db8:77:1:ffff:ffff:ffff:fffe';
    expect((await checkVerification(deps, { code, type: 1, ip: sameNetwork })).isValid).toBe(false);
    expect((await checkVerification(deps, { code, type: 1, ip: '2001:db8:77:2::1' })).isValid).toBe(true);
  });
});

describe('what a password reset records and sends (DESIGN §2 Reset password)', () => {
  it('records the reset with its type and the client address, notifies by name in the request language, wakes the worker once', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id, email } = await account();
    const code = await issueResetCode(deps, id, VerificationType.PasswordExpired);
    const ip = freshIp();
    const result = await resetPassword(deps, {
      code,
      type: 2,
      newPassword: NEW_PASSWORD,
      ip,
      language: 'de',
    });
    expect(result.outcome).toBe('reset');
    expect(deps.mail.queued).toEqual([
      expect.objectContaining({
        kind: 'password_changed',
        to: email,
        language: 'de',
        values: { userName: 'Ada Lovelace' },
      }),
    ]);
    expect(deps.mail.nudges).toBe(1);
    const events = await testDb()
      .db.select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'password_reset'), eq(auditEvents.accountId, id)));
    expect(events.map(({ outcome, ip, detail }) => ({ outcome, ip, detail }))).toEqual([
      { outcome: 'success', ip, detail: { verificationType: 2 } },
    ]);
  });

  it('refuses the link of a disabled account and keeps it for when the account is enabled again', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const code = await issueResetCode(deps, id);
    await setDisabled(testDb().db, id, true);
    expect(await checkVerification(deps, { code, type: 1, ip: freshIp() })).toEqual({
      isValid: false,
      userName: null,
    });
    expect(await reset(deps, code)).toEqual({ outcome: 'invalid' });
    expect(await verifyPassword((await findAccountById(testDb().db, id))?.passwordHash ?? null, STRONG)).toBe(
      true,
    );
    expect(deps.mail.queued).toHaveLength(0);
    await setDisabled(testDb().db, id, false);
    expect((await reset(deps, code)).outcome).toBe('reset');
  });

  it('changes nothing when the account is disabled while the reset checks and hashes the new password', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const code = await issueResetCode(deps, id);
    // The disable's transaction holds the account row as the reset reads, hashes and writes.
    const outcome = await againstOpenTransaction(
      testDb().db,
      async (tx) => {
        await setDisabled(tx, id, true);
      },
      () => reset(deps, code),
    );
    expect(outcome).toEqual({ outcome: 'invalid' });
    expect(await verifyPassword((await findAccountById(testDb().db, id))?.passwordHash ?? null, STRONG)).toBe(
      true,
    );
    expect(deps.mail.queued).toHaveLength(0);
    await setDisabled(testDb().db, id, false);
    expect((await reset(deps, code)).outcome).toBe('reset');
  });

  it('spends nothing when where the browser goes next cannot be read, so the same link works once the database is back', async () => {
    const { id } = await account();
    const code = await issueResetCode(recoveryDeps(testDb().db), id);
    const lost = new Error('Connection terminated unexpectedly');
    // The database answers every statement but the read of the clients' redirect URIs.
    const db = testDb().db;
    const failing = Object.create(db, {
      select: {
        value: (...fields: Parameters<typeof db.select>) => {
          const query = db.select(...fields);
          return Object.create(query, {
            from: {
              value: (table: unknown) =>
                table === oidcClients ? Promise.reject(lost) : query.from(table as never),
            },
          });
        },
      },
    }) as typeof db;
    const deps = recoveryDeps(failing);
    await expect(reset(deps, code)).rejects.toBe(lost);
    expect(await verifyPassword((await findAccountById(db, id))?.passwordHash ?? null, STRONG)).toBe(true);
    expect(deps.mail.queued).toHaveLength(0);

    const back = recoveryDeps(db);
    expect((await reset(back, code)).outcome).toBe('reset');
    expect(await verifyPassword((await findAccountById(db, id))?.passwordHash ?? null, NEW_PASSWORD)).toBe(
      true,
    );
  });

  it('stores no password, and no history row, for a disabled account', async () => {
    const { id } = await account();
    await setDisabled(testDb().db, id, true);
    const rows = () => testDb().db.select().from(passwordHistory).where(eq(passwordHistory.accountId, id));
    const before = await rows();
    expect(await storePassword(testDb().db, id, await hashPassword(NEW_PASSWORD), new Date())).toBe(false);
    expect(await rows()).toEqual(before);
    expect(await verifyPassword((await findAccountById(testDb().db, id))?.passwordHash ?? null, STRONG)).toBe(
      true,
    );
    await setDisabled(testDb().db, id, false);
    expect(await storePassword(testDb().db, id, await hashPassword(NEW_PASSWORD), new Date())).toBe(true);
    expect(await rows()).toHaveLength(before.length + 1);
  });

  it('refuses the unlock and new-address links of a disabled account, changing nothing, and keeps them', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id, email } = await account();
    const unlock = await issueResetCode(deps, id, VerificationType.LockedAfterTooManyFailedAttempts);
    const change = await issueResetCode(deps, id, VerificationType.EmailChanged, {
      newEmail: `moved-${serial}@example.com`,
    });
    await setDisabled(testDb().db, id, true);
    expect(await unlockAccount(deps, { code: unlock, ip: freshIp() })).toEqual({ outcome: 'invalid' });
    expect(await confirmNewEmail(deps, { code: change, ip: freshIp(), language: 'en' })).toEqual({
      outcome: 'failed',
    });
    expect((await findAccountById(testDb().db, id))?.email).toBe(email);
    const unlocks = await testDb()
      .db.select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'unlock'), eq(auditEvents.accountId, id)));
    expect(unlocks).toEqual([]);
    expect(deps.mail.queued).toHaveLength(0);

    await setDisabled(testDb().db, id, false);
    expect((await unlockAccount(deps, { code: unlock, ip: freshIp() })).outcome).toBe('unlocked');
    expect((await confirmNewEmail(deps, { code: change, ip: freshIp(), language: 'en' })).outcome).toBe(
      'confirmed',
    );
  });

  it('changes nothing when the account is disabled between the first reads of an unlock or new-address link and its use', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id, email } = await account();
    const unlock = await issueResetCode(deps, id, VerificationType.LockedAfterTooManyFailedAttempts);
    const change = await issueResetCode(deps, id, VerificationType.EmailChanged, {
      newEmail: `moved-${serial}@example.com`,
    });
    const disabling = () => withMeanwhile(deps, () => setDisabled(testDb().db, id, true).then(() => {}));

    expect(await unlockAccount(disabling(), { code: unlock, ip: freshIp() })).toEqual({ outcome: 'invalid' });
    await setDisabled(testDb().db, id, false);
    expect(await confirmNewEmail(disabling(), { code: change, ip: freshIp(), language: 'en' })).toEqual({
      outcome: 'failed',
    });

    expect((await findAccountById(testDb().db, id))?.email).toBe(email);
    expect(await auditOf(id, ['unlock', 'email_change'])).toEqual([]);
    expect(deps.mail.queued).toHaveLength(0);
    // Both links were kept for the enabled account.
    await setDisabled(testDb().db, id, false);
    expect((await unlockAccount(deps, { code: unlock, ip: freshIp() })).outcome).toBe('unlocked');
    expect((await confirmNewEmail(deps, { code: change, ip: freshIp(), language: 'en' })).outcome).toBe(
      'confirmed',
    );
    // Used, they answer as unknown again once the account is disabled: no success page for it.
    await setDisabled(testDb().db, id, true);
    expect(await unlockAccount(deps, { code: unlock, ip: freshIp() })).toEqual({ outcome: 'invalid' });
    expect(await confirmNewEmail(deps, { code: change, ip: freshIp(), language: 'en' })).toEqual({
      outcome: 'failed',
    });
  });

  it('queues no reset code or mail, and answers as for an unknown address, for an account deleted, disabled or moved to another address between forgot-password’s read and its mail', async () => {
    const quick = recoveryDeps(testDb().db, { sleep: async () => {} });
    const [provider] = await testDb()
      .db.insert(upstreamProviders)
      .values({
        name: 'Raced SSO',
        issuer: `https://raced-${serial}.test`,
        clientId: 'k',
        clientSecret: 's',
        scopes: [],
      })
      .returning();
    const local = await account();
    const federated = await account();
    await testDb()
      .db.update(accounts)
      .set({ externalIdpId: provider?.id ?? null })
      .where(eq(accounts.id, federated.id));
    const disabled = await account();
    const moved = await account();
    const relinked = await account();
    const ips: string[] = [];
    const forgot = (email: string, meanwhile: () => Promise<unknown>) => {
      const ip = freshIp();
      ips.push(ip);
      return requestPasswordReset(
        withMeanwhile(quick, () => meanwhile().then(() => {})),
        { email, ip, language: 'en' },
      );
    };

    await expect(forgot(local.email, () => deleteAccount(testDb().db, local.id))).resolves.toBeUndefined();
    await expect(
      forgot(federated.email, () => deleteAccount(testDb().db, federated.id)),
    ).resolves.toBeUndefined();
    await expect(
      forgot(disabled.email, () => setDisabled(testDb().db, disabled.id, true)),
    ).resolves.toBeUndefined();
    // A link to the address the account left would outlive that address's other links.
    await expect(
      forgot(moved.email, () => replaceEmail(testDb().db, moved.id, `moved-on-${serial}@example.com`)),
    ).resolves.toBeUndefined();

    // Linked to an organisation's provider meanwhile, it signs in there: no password link.
    await expect(
      forgot(relinked.email, () =>
        testDb()
          .db.update(accounts)
          .set({ externalIdpId: provider?.id ?? null })
          .where(eq(accounts.id, relinked.id)),
      ),
    ).resolves.toBeUndefined();

    expect(quick.mail.queued).toEqual([]);
    expect(quick.mail.nudges).toBe(0);
    const accountIds = [local.id, federated.id, disabled.id, moved.id, relinked.id];
    const codes = await testDb()
      .db.select()
      .from(verificationCodes)
      .where(inArray(verificationCodes.accountId, accountIds));
    expect(codes).toEqual([]);
    // Each request is on record as one for an unknown address: no account named.
    const requests = await testDb()
      .db.select({ accountId: auditEvents.accountId, outcome: auditEvents.outcome })
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'reset_request'), inArray(auditEvents.ip, ips)));
    expect(requests).toEqual(ips.map(() => ({ accountId: null, outcome: 'success' })));

    // Enabled again, the account gets its link as before.
    await setDisabled(testDb().db, disabled.id, false);
    await requestPasswordReset(quick, { email: disabled.email, ip: freshIp(), language: 'en' });
    expect(quick.mail.queued.map((mail) => [mail.kind, mail.to])).toEqual([
      ['password_reset', disabled.email],
    ]);
    expect(quick.mail.nudges).toBe(1);
  });

  it('lets a reset that is spending the old link finish while a new one is requested for the account, neither waiting for the other for good', async () => {
    const deps = recoveryDeps(testDb().db, { sleep: async () => {} });
    const { id, email } = await account();
    const old = await issueResetCode(deps, id);
    const now = await deps.clock.now();
    // The reset's order (reset-password.ts): its code spent first, then the account's row changed.
    const resetting = holdTransaction(
      testDb().db,
      async (tx) => {
        await tx
          .update(verificationCodes)
          .set({ consumedAt: now })
          .where(eq(verificationCodes.codeHash, codeHash(old)));
      },
      async (tx) => {
        await tx.update(accounts).set({ passwordChangedAt: now }).where(eq(accounts.id, id));
      },
    );
    await resetting.held;
    // On PostgreSQL the request keeps the account and then waits for the spent code's row, which
    // it supersedes; the reset then changes the account's row, which it must not wait for. (PGlite
    // runs one transaction at a time: there the request simply waits for the reset.)
    const requesting = requestPasswordReset(deps, { email, ip: freshIp(), language: 'en' });
    await releaseOnceWaitedFor(testDb(), resetting);

    await expect(resetting.done).resolves.toBeUndefined();
    await expect(requesting).resolves.toBeUndefined();
    expect(deps.mail.queued.map((mail) => [mail.kind, mail.to])).toEqual([['password_reset', email]]);
    const live = await testDb()
      .db.select({ consumedAt: verificationCodes.consumedAt, supersededAt: verificationCodes.supersededAt })
      .from(verificationCodes)
      .where(eq(verificationCodes.accountId, id));
    // The spent link stays spent (not superseded after the fact), the new one is live.
    expect(live).toHaveLength(2);
    expect(live.filter((code) => code.consumedAt === null && code.supersededAt === null)).toHaveLength(1);
    expect(live.filter((code) => code.consumedAt !== null && code.supersededAt === null)).toHaveLength(1);
  });

  it('answers expired, changing nothing, when a newer mail replaced an unlock or new-address link since it was read', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id, email } = await account();
    const unlock = await issueResetCode(deps, id, VerificationType.LockedAfterTooManyFailedAttempts);
    const change = await issueResetCode(deps, id, VerificationType.EmailChanged, {
      newEmail: `moved-${serial}@example.com`,
    });
    const superseding = (type: VerificationType) =>
      withMeanwhile(deps, async () => supersedeCodes(testDb().db, id, [type], await deps.clock.now()));

    expect(
      await unlockAccount(superseding(VerificationType.LockedAfterTooManyFailedAttempts), {
        code: unlock,
        ip: freshIp(),
      }),
    ).toEqual({ outcome: 'expired' });
    expect(
      await confirmNewEmail(superseding(VerificationType.EmailChanged), {
        code: change,
        ip: freshIp(),
        language: 'en',
      }),
    ).toEqual({ outcome: 'failed' });

    expect((await findAccountById(testDb().db, id))?.email).toBe(email);
    expect(await auditOf(id, ['unlock', 'email_change'])).toEqual([]);
    expect(deps.mail.queued).toHaveLength(0);
    const codes = await testDb()
      .db.select({ consumedAt: verificationCodes.consumedAt })
      .from(verificationCodes)
      .where(eq(verificationCodes.accountId, id));
    expect(codes).toEqual([{ consumedAt: null }, { consumedAt: null }]);
  });

  it('counts a link refused in its transaction as a wrong code of the client address, as one refused at first sight, and a used one not', async () => {
    const deps = recoveryDeps(testDb().db);
    const { id } = await account();
    const ip = freshIp();
    // DESIGN §2 Codes: 20 wrong codes per IP in 15 minutes; 16 guesses leave room for four more.
    for (let n = 0; n < 16; n++) await unlockAccount(deps, { code: `guess-${n}`, ip });
    const unlock = await issueResetCode(deps, id, VerificationType.LockedAfterTooManyFailedAttempts);
    const superseded = withMeanwhile(deps, async () =>
      supersedeCodes(
        testDb().db,
        id,
        [VerificationType.LockedAfterTooManyFailedAttempts],
        await deps.clock.now(),
      ),
    );
    expect(await unlockAccount(superseded, { code: unlock, ip })).toEqual({ outcome: 'expired' }); // 17
    const replaced = await issueResetCode(deps, id, VerificationType.EmailChanged, {
      newEmail: `replaced-${serial}@example.com`,
    });
    const replacing = withMeanwhile(deps, async () =>
      supersedeCodes(testDb().db, id, [VerificationType.EmailChanged], await deps.clock.now()),
    );
    expect(await confirmNewEmail(replacing, { code: replaced, ip, language: 'en' })).toEqual({
      outcome: 'failed',
    }); // 18
    const change = await issueResetCode(deps, id, VerificationType.EmailChanged, {
      newEmail: `counted-${serial}@example.com`,
    });
    const disabling = withMeanwhile(deps, () => setDisabled(testDb().db, id, true).then(() => {}));
    expect(await confirmNewEmail(disabling, { code: change, ip, language: 'en' })).toEqual({
      outcome: 'failed',
    }); // 19
    await setDisabled(testDb().db, id, false);
    // A link that works is no wrong code: after it, one more guess is still looked at.
    const fresh = await issueResetCode(deps, id, VerificationType.LockedAfterTooManyFailedAttempts);
    expect((await unlockAccount(deps, { code: fresh, ip })).outcome).toBe('unlocked');
    expect((await confirmNewEmail(deps, { code: change, ip, language: 'en' })).outcome).toBe('confirmed');
    const locked = withMeanwhile(deps, () => setDisabled(testDb().db, id, true).then(() => {}));
    expect(await unlockAccount(locked, { code: fresh, ip })).toEqual({ outcome: 'invalid' }); // 20
    await setDisabled(testDb().db, id, false);
    // The twentieth wrong code stops the address from being looked at, even with a working link.
    expect(await unlockAccount(deps, { code: fresh, ip })).toEqual({ outcome: 'invalid' });
    expect((await unlockAccount(deps, { code: fresh, ip: freshIp() })).outcome).toBe('unlocked');
  });

  it('sets the new password of an address the outbox would refuse, without a notice', async () => {
    const deps = recoveryDeps(testDb().db);
    serial += 1;
    const { id } = await createAccount(testDb().db, `codes-${serial}@localhost`, STRONG);
    const code = await issueResetCode(deps, id);
    expect((await reset(deps, code)).outcome).toBe('reset');
    expect(
      await verifyPassword((await findAccountById(testDb().db, id))?.passwordHash ?? null, NEW_PASSWORD),
    ).toBe(true);
    expect(deps.mail.queued).toHaveLength(0);
  });
});
