import { VerificationType } from '@keycard/contract';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { findAccountByEmail, findAccountById } from '../src/accounts/account-repository.ts';
import { checkVerification } from '../src/recovery/check-verification.ts';
import { confirmNewEmail } from '../src/recovery/confirm-new-email.ts';
import { inviteUser } from '../src/recovery/invite-user.ts';
import { requestEmailChange } from '../src/recovery/request-email-change.ts';
import { resetPassword } from '../src/recovery/reset-password.ts';
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
} from './recovery-kit.ts';
import { useTestDatabase } from './support/database.ts';
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
    expect(deps.mail.of('email_change_notice', old)).toHaveLength(2);
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
    expect(deps.mail.of('email_change_notice')).toHaveLength(1);
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
    const code = codeOf(deps.mail.of('email_change_confirm', wanted)[0]?.link ?? '');
    expect(await confirm(deps, code)).toEqual({ outcome: 'failed' });
    expect((await findAccountById(testDb().db, account.id))?.email).toBe(old);
    expect(deps.mail.of('email_change_notice', old)).toHaveLength(1);
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

describe('inviting a user (VerifyUser, type 6)', () => {
  it('mails a /resetPassword/6 link that sets the first password', async () => {
    const deps = recoveryDeps(testDb().db);
    const email = nextAddress('invited');
    const account = await createAccount(testDb().db, email, null, 'Grace Hopper');
    expect(await inviteUser(deps, account.id)).toEqual({ outcome: 'invited' });
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
