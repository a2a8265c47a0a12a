import { VerificationType } from '@keycard/contract';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { findAccountByEmail, findAccountById } from '../src/accounts/account-repository.ts';
import { identifierHash } from '../src/accounts/identifiers.ts';
import { isLocked, recordFailure } from '../src/accounts/lockout.ts';
import { verifyPassword } from '../src/accounts/password-hash.ts';
import { findLiveCode } from '../src/codes/codes.ts';
import { checkVerification } from '../src/recovery/check-verification.ts';
import { confirmNewEmail } from '../src/recovery/confirm-new-email.ts';
import { inviteUser } from '../src/recovery/invite-user.ts';
import { requestEmailChange } from '../src/recovery/request-email-change.ts';
import { resetPassword } from '../src/recovery/reset-password.ts';
import { unlockAccount } from '../src/recovery/unlock-account.ts';
import { auditEvents } from '../src/store/tables/index.ts';
import {
  codeOf,
  DEFAULT_REDIRECT,
  freshIp,
  issueResetCode,
  NEW_PASSWORD,
  PUBLIC_URL,
  recoveryDeps,
  STRONG,
  withMeanwhile,
} from './recovery-kit.ts';
import { useTestDatabase } from './support/database.ts';
import { linkToUpstreamProvider } from './support/linked-account.ts';
import { createAccount } from './support/oidc-flow.ts';

const testDb = useTestDatabase();
let serial = 0;

function nextAddress(prefix: string): string {
  serial += 1;
  return `${prefix}-${serial}@example.com`;
}

function confirm(deps: ReturnType<typeof recoveryDeps>, code: string, redirectUrl?: string) {
  return confirmNewEmail(deps, { code, ip: freshIp(), language: 'en', redirectUrl });
}

/** The account's email_change audit records, oldest first, as far as a test states them. */
async function emailChangeEvents(accountId: string) {
  const rows = await testDb()
    .db.select()
    .from(auditEvents)
    .where(and(eq(auditEvents.event, 'email_change'), eq(auditEvents.accountId, accountId)))
    .orderBy(auditEvents.id);
  return rows.map(({ outcome, ip, detail }) => ({ outcome, ip, detail }));
}

/**
 * Runs `body` while every address swap on the account table first meets `statement` from a trigger:
 * the moment between the swap's check and its write, where another account can take the address.
 */
async function duringSwap(statement: string, body: () => Promise<void>): Promise<void> {
  const db = testDb().db;
  await db.execute(
    sql.raw(`create function keycard_test_during_swap() returns trigger language plpgsql as $$
      begin
        if new.email_normalized <> old.email_normalized then ${statement}; end if;
        return new;
      end $$`),
  );
  await db.execute(
    sql.raw(`create trigger keycard_test_during_swap before update on account
      for each row execute function keycard_test_during_swap()`),
  );
  try {
    await body();
  } finally {
    await db.execute(sql.raw('drop trigger keycard_test_during_swap on account'));
    await db.execute(sql.raw('drop function keycard_test_during_swap()'));
  }
}

describe('changing the e-mail address (DESIGN §1 Provisioning, §2)', () => {
  it('mails the confirmation link to the new address and a notice to the old one', async () => {
    const deps = recoveryDeps(testDb().db);
    const old = nextAddress('old');
    const account = await createAccount(testDb().db, old, STRONG, 'Ada Lovelace');
    const wanted = nextAddress('new');
    expect(await requestEmailChange(deps, account.id, wanted)).toEqual({ outcome: 'requested' });
    const [confirmMail] = deps.mail.of('email_change_confirm', wanted);
    expect(confirmMail).toMatchObject({ userName: 'Ada Lovelace', newEmail: wanted });
    expect(confirmMail?.link).toMatch(new RegExp(`^${PUBLIC_URL}/verifyNewEmail/[\\w-]{43}$`));
    expect(deps.mail.of('email_change_notice', old)).toEqual([
      { userName: 'Ada Lovelace', newEmail: wanted },
    ]);
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(old);
  });

  it('swaps the address on the link, tells the old address and greets by first name', async () => {
    const deps = recoveryDeps(testDb().db);
    const old = nextAddress('old');
    const account = await createAccount(testDb().db, old, STRONG, 'Ada Lovelace');
    const wanted = nextAddress('new');
    await requestEmailChange(deps, account.id, wanted);
    const code = codeOf(deps.mail.of('email_change_confirm', wanted)[0]?.link ?? '');
    expect(await confirm(deps, code, `${PUBLIC_URL}/somewhere`)).toEqual({
      outcome: 'confirmed',
      firstName: 'Ada',
      redirectUrl: `${PUBLIC_URL}/somewhere`,
    });
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(wanted);
    expect(await findAccountByEmail(testDb().db, old)).toBeNull();
    expect(deps.mail.of('email_change_notice', old)).toHaveLength(1);
    // The old address is told the change is done, not again that it is under way.
    expect(deps.mail.of('email_changed', old)).toEqual([{ userName: 'Ada Lovelace', newEmail: wanted }]);
  });

  it('is idempotent within the lifetime: a second open succeeds and records the change once', async () => {
    const deps = recoveryDeps(testDb().db);
    const account = await createAccount(testDb().db, nextAddress('old'), STRONG, 'Ada Lovelace');
    const wanted = nextAddress('new');
    const code = await issueResetCode(deps, account.id, VerificationType.EmailChanged, { newEmail: wanted });
    const scanner = await confirm(deps, code);
    const person = await confirm(deps, code);
    expect(scanner).toEqual({ outcome: 'confirmed', firstName: 'Ada', redirectUrl: DEFAULT_REDIRECT });
    expect(person).toEqual(scanner);
    const changes = await testDb()
      .db.select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.event, 'email_change'),
          eq(auditEvents.accountId, account.id),
          eq(auditEvents.outcome, 'success'),
        ),
      );
    expect(changes).toHaveLength(1);
    expect(deps.mail.of('email_changed')).toHaveLength(1);
  });

  it('stops every link mailed before the change: reset, expired password, unlock, invitation and another change', async () => {
    const deps = recoveryDeps(testDb().db);
    const account = await createAccount(testDb().db, nextAddress('old'), STRONG, 'Ada Lovelace');
    const bystander = await createAccount(testDb().db, nextAddress('other'), STRONG, 'Grace Hopper');
    const mailedBefore = [
      await issueResetCode(deps, account.id, VerificationType.PasswordReset),
      await issueResetCode(deps, account.id, VerificationType.PasswordExpired),
      await issueResetCode(deps, account.id, VerificationType.LockedAfterTooManyFailedAttempts),
      await issueResetCode(deps, account.id, VerificationType.VerifyUser),
      await issueResetCode(deps, account.id, VerificationType.ContactEmailChanged, {
        newEmail: nextAddress('elsewhere'),
      }),
    ];
    const othersReset = await issueResetCode(deps, bystander.id, VerificationType.PasswordReset);
    const change = await issueResetCode(deps, account.id, VerificationType.EmailChanged, {
      newEmail: nextAddress('new'),
    });
    const live = (code: string) =>
      findLiveCode(deps.db, deps.clock, code, Object.values(VerificationType)).then(Boolean);

    expect(await Promise.all(mailedBefore.map(live))).toEqual([true, true, true, true, true]);
    expect((await confirm(deps, change)).outcome).toBe('confirmed');
    expect(await Promise.all(mailedBefore.map(live))).toEqual([false, false, false, false, false]);
    expect(await live(othersReset)).toBe(true);
    // The change's own link still answers as before (idempotent within its lifetime).
    expect((await confirm(deps, change)).outcome).toBe('confirmed');

    // Opened now, each says it has expired or failed; none claims a success it did not have.
    const [reset, expired, unlock, invitation, otherChange] = mailedBefore.map(String);
    for (const [code = '', type] of [
      [reset, VerificationType.PasswordReset],
      [expired, VerificationType.PasswordExpired],
      [invitation, VerificationType.VerifyUser],
    ] as const) {
      expect(await checkVerification(deps, { code, type, ip: freshIp() })).toEqual({
        isValid: false,
        userName: null,
      });
      expect(
        await resetPassword(deps, { code, type, newPassword: NEW_PASSWORD, ip: freshIp(), language: 'en' }),
      ).toEqual({ outcome: 'invalid' });
    }
    expect(await unlockAccount(deps, { code: String(unlock), ip: freshIp() })).toEqual({
      outcome: 'expired',
    });
    expect((await confirm(deps, String(otherChange))).outcome).toBe('failed');
    expect(
      await verifyPassword((await findAccountById(testDb().db, account.id))?.passwordHash ?? null, STRONG),
    ).toBe(true);
  });

  it('leaves the links mailed before in force when the new address was taken', async () => {
    const deps = recoveryDeps(testDb().db);
    const account = await createAccount(testDb().db, nextAddress('old'), STRONG, 'Ada Lovelace');
    const taken = nextAddress('taken');
    await createAccount(testDb().db, taken, STRONG, 'Grace Hopper');
    const reset = await issueResetCode(deps, account.id, VerificationType.PasswordReset);
    const change = await issueResetCode(deps, account.id, VerificationType.EmailChanged, { newEmail: taken });
    expect((await confirm(deps, change)).outcome).toBe('failed');
    expect(await findLiveCode(deps.db, deps.clock, reset, [VerificationType.PasswordReset])).not.toBeNull();
  });

  it('accepts a ContactEmailChanged (4) code carrying the new address too', async () => {
    const deps = recoveryDeps(testDb().db);
    const account = await createAccount(testDb().db, nextAddress('old'), STRONG, 'Ada Lovelace');
    const wanted = nextAddress('contact');
    const code = await issueResetCode(deps, account.id, VerificationType.ContactEmailChanged, {
      newEmail: wanted,
    });
    expect((await confirm(deps, code)).outcome).toBe('confirmed');
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(wanted);
  });

  it('fails and changes nothing when the new address was taken meanwhile', async () => {
    const deps = recoveryDeps(testDb().db);
    const old = nextAddress('old');
    const account = await createAccount(testDb().db, old, STRONG, 'Ada Lovelace');
    const wanted = nextAddress('new');
    await requestEmailChange(deps, account.id, wanted);
    await createAccount(testDb().db, wanted.toUpperCase(), STRONG, 'Someone Else');
    // The address's owner is locked out by failed sign-ins: the refused change must not lift that.
    const owner = identifierHash(wanted);
    const now = await deps.clock.now();
    for (let n = 0; n < 5; n++) await recordFailure(testDb().db, owner, now, { threshold: 5, minutes: 60 });
    const code = codeOf(deps.mail.of('email_change_confirm', wanted)[0]?.link ?? '');
    expect(await confirm(deps, code)).toEqual({ outcome: 'failed' });
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(old);
    expect(deps.mail.of('email_change_notice', old)).toHaveLength(1);
    expect(await isLocked(testDb().db, owner, now)).toBe(true);
  });

  it('keeps the new address trimmed and composed (NFC), its letter case as typed', async () => {
    const deps = recoveryDeps(testDb().db);
    const account = await createAccount(testDb().db, nextAddress('old'), STRONG, 'Ada Lovelace');
    serial += 1;
    const typed = `  Jose\u0301-${serial}@Example.com `;
    const stored = `Jos\u00e9-${serial}@Example.com`;
    await requestEmailChange(deps, account.id, typed);
    const [mail] = deps.mail.of('email_change_confirm', stored);
    expect(mail?.newEmail).toBe(stored);
    expect((await confirm(deps, codeOf(mail?.link ?? ''))).outcome).toBe('confirmed');
    expect(await findAccountById(testDb().db, account.id)).toMatchObject({
      email: stored,
      emailNormalized: stored.toLowerCase(),
    });
  });

  it('refuses a request for a taken or unchanged address and an unknown account', async () => {
    const deps = recoveryDeps(testDb().db);
    const account = await createAccount(testDb().db, nextAddress('old'), STRONG);
    const other = await createAccount(testDb().db, nextAddress('other'), STRONG);
    expect(await requestEmailChange(deps, account.id, other.email)).toEqual({ outcome: 'taken' });
    expect(await requestEmailChange(deps, account.id, ` ${account.email.toUpperCase()} `)).toEqual({
      outcome: 'unchanged',
    });
    expect(await requestEmailChange(deps, '00000000-0000-4000-8000-000000000000', 'x@example.com')).toEqual({
      outcome: 'not_found',
    });
    expect(deps.mail.queued).toHaveLength(0);
  });

  it('fails for an expired link, a reset code and an unknown code', async () => {
    const deps = recoveryDeps(testDb().db);
    const account = await createAccount(testDb().db, nextAddress('old'), STRONG);
    const change = await issueResetCode(deps, account.id, VerificationType.EmailChanged, {
      newEmail: nextAddress('new'),
    });
    const reset = await issueResetCode(deps, account.id, VerificationType.PasswordReset);
    expect(await confirm(deps, reset)).toEqual({ outcome: 'failed' });
    expect(await confirm(deps, 'unknown-code')).toEqual({ outcome: 'failed' });
    deps.clock.advance(72 * 60 * 60_000 + 1000); // DESIGN §2 Codes: EmailChanged 72 h
    expect(await confirm(deps, change)).toEqual({ outcome: 'failed' });
  });
});

describe('confirming the new address: what is recorded and when it is refused', () => {
  it('records the request, and on the link the change with the client address, telling the old address in the request language', async () => {
    const deps = recoveryDeps(testDb().db);
    const old = nextAddress('old');
    const account = await createAccount(testDb().db, old, STRONG, 'Ada Lovelace');
    const wanted = nextAddress('new');
    await requestEmailChange(deps, account.id, wanted);
    expect(deps.mail.nudges).toBe(1);
    expect(await emailChangeEvents(account.id)).toEqual([
      { outcome: 'success', ip: null, detail: { step: 'requested' } },
    ]);
    const code = codeOf(deps.mail.of('email_change_confirm', wanted)[0]?.link ?? '');
    const ip = freshIp();
    const confirmed = await confirmNewEmail(deps, { code, ip, language: 'de' });
    expect(confirmed.outcome).toBe('confirmed');
    expect(deps.mail.nudges).toBe(2);
    const notices = deps.mail.queued.filter((mail) => mail.kind === 'email_changed');
    expect(notices.at(-1)).toMatchObject({
      to: old,
      language: 'de',
      values: { userName: 'Ada Lovelace', newEmail: wanted },
    });
    expect((await emailChangeEvents(account.id)).at(-1)).toEqual({ outcome: 'success', ip, detail: null });
    // A later open changes nothing more: no mail, no wake-up, no record.
    expect((await confirm(deps, code)).outcome).toBe('confirmed');
    expect(deps.mail.nudges).toBe(2);
    expect(await emailChangeEvents(account.id)).toHaveLength(2);
  });

  it('records a refusal with the client address when the address was taken, wakes no mail worker and counts no wrong code', async () => {
    const deps = recoveryDeps(testDb().db);
    const account = await createAccount(testDb().db, nextAddress('old'), STRONG);
    const wanted = nextAddress('new');
    const code = await issueResetCode(deps, account.id, VerificationType.EmailChanged, { newEmail: wanted });
    await createAccount(testDb().db, wanted, STRONG, 'Someone Else');
    const ip = freshIp();
    const counted = vi.spyOn(deps.limits.wrongCodesPerIp, 'add');
    expect(await confirmNewEmail(deps, { code, ip, language: 'en' })).toEqual({ outcome: 'failed' });
    expect(await emailChangeEvents(account.id)).toEqual([
      { outcome: 'refused', ip, detail: { reason: 'address_taken' } },
    ]);
    expect(deps.mail.nudges).toBe(0);
    expect(deps.mail.queued).toHaveLength(0);
    // The link is right, and stays usable: no guess to count.
    expect(counted).not.toHaveBeenCalled();
  });

  it('treats an account created with the address during the swap as a taken address, and leaves the link usable', async () => {
    const deps = recoveryDeps(testDb().db);
    const old = nextAddress('old');
    const account = await createAccount(testDb().db, old, STRONG);
    const wanted = nextAddress('raced');
    const code = await issueResetCode(deps, account.id, VerificationType.EmailChanged, { newEmail: wanted });
    const ip = freshIp();
    await duringSwap(
      `insert into account (email, email_normalized, display_name, first_name)
        values (new.email, new.email_normalized, 'Someone Else', 'Someone')`,
      async () => {
        expect(await confirmNewEmail(deps, { code, ip, language: 'en' })).toEqual({ outcome: 'failed' });
      },
    );
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(old);
    expect(await emailChangeEvents(account.id)).toEqual([
      { outcome: 'refused', ip, detail: { reason: 'address_taken' } },
    ]);
    expect(deps.mail.queued).toHaveLength(0);
    // The racing account's insert went with the failed swap; the unspent link now changes the address.
    expect((await confirm(deps, code)).outcome).toBe('confirmed');
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(wanted);
  });

  it('lets any other database error during the swap through, changing nothing', async () => {
    const deps = recoveryDeps(testDb().db);
    const old = nextAddress('old');
    const account = await createAccount(testDb().db, old, STRONG);
    const code = await issueResetCode(deps, account.id, VerificationType.EmailChanged, {
      newEmail: nextAddress('new'),
    });
    await duringSwap(`raise exception 'disk on fire' using errcode = '53100'`, async () => {
      await expect(confirm(deps, code)).rejects.toThrow();
    });
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(old);
    expect(await emailChangeEvents(account.id)).toEqual([]);
  });

  it('tells the old address once when two opens of the link run at the same time', async () => {
    const deps = recoveryDeps(testDb().db);
    const account = await createAccount(testDb().db, nextAddress('old'), STRONG);
    const wanted = nextAddress('new');
    const code = await issueResetCode(deps, account.id, VerificationType.EmailChanged, { newEmail: wanted });
    const both = await Promise.all([confirm(deps, code), confirm(deps, code)]);
    expect(both.map((result) => result.outcome)).toEqual(['confirmed', 'confirmed']);
    expect(deps.mail.of('email_changed')).toHaveLength(1);
    expect(await emailChangeEvents(account.id)).toHaveLength(1);
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(wanted);
  });

  it('a first open that stalls until its link was used and the address changed again puts nothing back', async () => {
    const deps = recoveryDeps(testDb().db);
    const account = await createAccount(testDb().db, nextAddress('old'), STRONG);
    const first = nextAddress('first');
    const second = nextAddress('second');
    const firstCode = await issueResetCode(deps, account.id, VerificationType.EmailChanged, {
      newEmail: first,
    });
    // This open read the link while it was unused; before its transaction (a busy pool, say), another
    // open uses the link and the address is changed once more.
    const stalled = withMeanwhile(deps, async () => {
      expect((await confirm(deps, firstCode)).outcome).toBe('confirmed');
      const secondCode = await issueResetCode(deps, account.id, VerificationType.EmailChanged, {
        newEmail: second,
      });
      expect((await confirm(deps, secondCode)).outcome).toBe('confirmed');
    });
    const counted = vi.spyOn(deps.limits.wrongCodesPerIp, 'add');
    expect(await confirm(stalled, firstCode)).toEqual({ outcome: 'failed' });
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(second);
    expect(deps.mail.of('email_changed')).toHaveLength(2);
    // A link the person was mailed and used is no guess.
    expect(counted).not.toHaveBeenCalled();
  });

  it('fails, changing nothing, when the account was linked to its organisation’s provider since the link was mailed', async () => {
    const deps = recoveryDeps(testDb().db);
    const old = nextAddress('old');
    const account = await createAccount(testDb().db, old, STRONG);
    const code = await issueResetCode(deps, account.id, VerificationType.EmailChanged, {
      newEmail: nextAddress('new'),
    });
    // The person's first sign-in through the provider of the address's domain links the account.
    await linkToUpstreamProvider(testDb().db, account.id);
    const counted = vi.spyOn(deps.limits.wrongCodesPerIp, 'add');
    const ip = freshIp();
    expect(await confirmNewEmail(deps, { code, ip, language: 'en' })).toEqual({ outcome: 'failed' });
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(old);
    expect(await emailChangeEvents(account.id)).toEqual([
      { outcome: 'refused', ip, detail: { reason: 'signs_in_upstream' } },
    ]);
    expect(deps.mail.queued).toHaveLength(0);
    // A link the person was mailed: no guess.
    expect(counted).not.toHaveBeenCalled();
  });

  it('fails for a used link once the address has changed again', async () => {
    const deps = recoveryDeps(testDb().db);
    const account = await createAccount(testDb().db, nextAddress('old'), STRONG);
    const first = nextAddress('first');
    const second = nextAddress('second');
    const firstCode = await issueResetCode(deps, account.id, VerificationType.ContactEmailChanged, {
      newEmail: first,
    });
    expect((await confirm(deps, firstCode)).outcome).toBe('confirmed');
    const secondCode = await issueResetCode(deps, account.id, VerificationType.EmailChanged, {
      newEmail: second,
    });
    expect((await confirm(deps, secondCode)).outcome).toBe('confirmed');
    expect(await confirm(deps, firstCode)).toEqual({ outcome: 'failed' });
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(second);
  });

  it('fails for a link replaced by a newer request and for a code that carries no address', async () => {
    const deps = recoveryDeps(testDb().db);
    const old = nextAddress('old');
    const account = await createAccount(testDb().db, old, STRONG);
    const replaced = await issueResetCode(deps, account.id, VerificationType.EmailChanged, {
      newEmail: nextAddress('replaced'),
    });
    await issueResetCode(deps, account.id, VerificationType.EmailChanged, { newEmail: nextAddress('newer') });
    expect(await confirm(deps, replaced)).toEqual({ outcome: 'failed' });
    const bare = await issueResetCode(deps, account.id, VerificationType.ContactEmailChanged);
    expect(await confirm(deps, bare)).toEqual({ outcome: 'failed' });
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(old);
  });

  it('fails at the very instant 72 hours have passed (DESIGN §2 Codes: EmailChanged 72 h)', async () => {
    const deps = recoveryDeps(testDb().db);
    const old = nextAddress('old');
    const account = await createAccount(testDb().db, old, STRONG);
    const code = await issueResetCode(deps, account.id, VerificationType.EmailChanged, {
      newEmail: nextAddress('new'),
    });
    deps.clock.advance(72 * 60 * 60_000);
    expect(await confirm(deps, code)).toEqual({ outcome: 'failed' });
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(old);
  });

  it('a used link still confirms one second before 72 hours, and fails at the very instant (DESIGN §2 Codes: idempotent within the lifetime)', async () => {
    const deps = recoveryDeps(testDb().db);
    const account = await createAccount(testDb().db, nextAddress('old'), STRONG);
    const wanted = nextAddress('new');
    const code = await issueResetCode(deps, account.id, VerificationType.EmailChanged, { newEmail: wanted });
    expect((await confirm(deps, code)).outcome).toBe('confirmed');
    deps.clock.advance(72 * 60 * 60_000 - 1_000);
    expect((await confirm(deps, code)).outcome).toBe('confirmed');
    deps.clock.advance(1_000);
    expect(await confirm(deps, code)).toEqual({ outcome: 'failed' });
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(wanted);
  });

  it('fails without looking once the client address has presented 20 wrong codes', async () => {
    const deps = recoveryDeps(testDb().db);
    const old = nextAddress('old');
    const account = await createAccount(testDb().db, old, STRONG);
    const code = await issueResetCode(deps, account.id, VerificationType.EmailChanged, {
      newEmail: nextAddress('new'),
    });
    const ip = freshIp();
    // DESIGN §2 Codes: 20 wrong codes per IP in 15 minutes.
    for (let n = 0; n < 20; n++) {
      expect(await confirmNewEmail(deps, { code: `guess-${n}`, ip, language: 'en' })).toEqual({
        outcome: 'failed',
      });
    }
    expect(await confirmNewEmail(deps, { code, ip, language: 'en' })).toEqual({ outcome: 'failed' });
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(old);
    expect((await confirm(deps, code)).outcome).toBe('confirmed');
  });
});

describe('inviting a user (VerifyUser, type 6)', () => {
  it('mails a /resetPassword/6 link that sets the first password', async () => {
    const deps = recoveryDeps(testDb().db);
    const email = nextAddress('invited');
    const account = await createAccount(testDb().db, email, null, 'Grace Hopper');
    expect(await inviteUser(deps, account.id)).toEqual({ outcome: 'invited' });
    expect(deps.mail.nudges).toBe(1);
    const [mail] = deps.mail.of('invitation', email);
    expect(mail?.userName).toBe('Grace Hopper');
    expect(mail?.link).toMatch(new RegExp(`^${PUBLIC_URL}/resetPassword/6/[\\w-]{43}$`));
    const code = codeOf(mail?.link ?? '');
    expect(await checkVerification(deps, { code, type: 6, ip: freshIp() })).toEqual({
      isValid: true,
      userName: 'Grace Hopper',
    });
    const result = await resetPassword(deps, {
      code,
      type: 6,
      newPassword: NEW_PASSWORD,
      ip: freshIp(),
      language: 'en',
    });
    expect(result).toEqual({ outcome: 'reset', redirectUrl: DEFAULT_REDIRECT });
    expect((await findAccountById(testDb().db, account.id))?.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('answers not_found for an unknown account', async () => {
    const deps = recoveryDeps(testDb().db);
    expect(await inviteUser(deps, '00000000-0000-4000-8000-000000000000')).toEqual({ outcome: 'not_found' });
  });
});
