import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { findAccountById } from '../src/accounts/account-repository.ts';
import { codeHash, issueCode } from '../src/codes/codes.ts';
import type { MailKind } from '../src/mail/mail-kinds.ts';
import { inviteUser } from '../src/recovery/invite-user.ts';
import type { MailingDeps } from '../src/recovery/recovery-deps.ts';
import { requestEmailChange } from '../src/recovery/request-email-change.ts';
import { databaseClock } from '../src/store/clock.ts';
import { verificationCodes } from '../src/store/tables/index.ts';
import { type ApiClient, apiClient, codeOf, linkIn, NEW_PASSWORD, STRONG } from './recovery-kit.ts';
import { testConfig } from './support/app.ts';
import { attemptLogin, createAccount, RP, registerTestClient } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

const PUBLIC_URL = 'http://localhost:3000';
const DEFAULT_REDIRECT = `${PUBLIC_URL}/demo`;
let api: ApiClient;
let serial = 0;
/** The default code lifetimes, for codes this file issues directly. */
const LIFETIMES = testConfig().codeLifetimes;

const service = useTestService({
  env: { LOCKOUT_THRESHOLD: '3', LOCKOUT_MINUTES: '0' },
  setUp: async ({ app, db }) => {
    api = await apiClient(app);
    await registerTestClient(db);
  },
});
const app = () => service().app;
const db = () => service().db;

/** How the admin CLI and API call the provisioning steps: the service's store, clock and outbox. */
function adminDeps(): MailingDeps {
  return {
    db: db(),
    clock: databaseClock(db()),
    mail: app().mail,
    publicUrl: PUBLIC_URL,
    codeLifetimes: LIFETIMES,
  };
}

async function account(password: string | null = STRONG, name = 'Ada Lovelace') {
  serial += 1;
  return createAccount(db(), `links-${serial}@example.com`, password, name);
}

const signIn = (email: string, password: string) => attemptLogin(app(), email, password);

async function onlyLink(kind: MailKind, to: string): Promise<string> {
  const mails = await service().mails(kind, to);
  expect(mails).toHaveLength(1);
  return linkIn(mails[0]?.textBody ?? '');
}

function unlock(code: string, redirectUrl: string | null = null) {
  return api.post('/api/UnlockUser', { verificationCode: code, redirectUrl });
}

function verifyNewEmail(code: string, redirectUrl: string | null = null) {
  return api.post('/api/VerifyNewEmail', { verificationCode: code, redirectUrl });
}

describe('POST /api/UnlockUser', () => {
  it('a lock queues one unlock mail whose link unlocks, also when opened twice', async () => {
    const target = await account();
    for (let n = 0; n < 5; n++) await signIn(target.email, 'Wrong-Password-1');
    expect((await signIn(target.email, STRONG)).verificationType).toBe(3);
    const link = await onlyLink('unlock', target.email);
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/unlock/[\\w-]{43}$`));

    const success = {
      success: true,
      userName: 'Ada Lovelace',
      linkExpired: false,
      redirectUrl: `${RP}/home`,
    };
    expect((await unlock(codeOf(link), `${RP}/home`)).json()).toEqual(success);
    expect((await unlock(codeOf(link), `${RP}/home`)).json()).toEqual(success);
    expect((await signIn(target.email, STRONG)).isAuthenticated).toBe(true);
  });

  it('answers linkExpired for an expired link and a plain failure for unknown or foreign codes', async () => {
    const target = await account();
    const clock = databaseClock(db());
    const expired = await issueCode(db(), clock, LIFETIMES, { accountId: target.id, type: 3 });
    await db()
      .update(verificationCodes)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(verificationCodes.codeHash, codeHash(expired)));
    expect((await unlock(expired)).json()).toEqual({
      success: false,
      userName: null,
      linkExpired: true,
      redirectUrl: null,
    });
    const reset = await issueCode(db(), clock, LIFETIMES, { accountId: target.id, type: 1 });
    for (const code of ['no-such-code', reset]) {
      expect((await unlock(code)).json()).toEqual({
        success: false,
        userName: null,
        linkExpired: false,
        redirectUrl: null,
      });
    }
  });

  it('falls back to the default for a RedirectUrl that is not allowed', async () => {
    const target = await account();
    const code = await issueCode(db(), databaseClock(db()), LIFETIMES, {
      accountId: target.id,
      type: 3,
    });
    expect((await unlock(code, 'https://evil.test/')).json()).toMatchObject({
      success: true,
      redirectUrl: DEFAULT_REDIRECT,
    });
  });
});

describe('POST /api/VerifyNewEmail', () => {
  it('confirms a requested change from the mailed link, tells the old address, and the new address signs in', async () => {
    const target = await account();
    serial += 1;
    const wanted = `moved-${serial}@example.com`;
    expect(await requestEmailChange(adminDeps(), target.id, wanted)).toEqual({ outcome: 'requested' });
    const link = await onlyLink('email_change_confirm', wanted);
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/verifyNewEmail/[\\w-]{43}$`));
    expect(await service().mails('email_change_notice', target.email)).toHaveLength(1);

    const success = { success: true, userFirstName: 'Ada', redirectUrl: `${RP}/profile` };
    expect((await verifyNewEmail(codeOf(link), `${RP}/profile`)).json()).toEqual(success);
    expect((await verifyNewEmail(codeOf(link), `${RP}/profile`)).json()).toEqual(success);
    expect((await findAccountById(db(), target.id))?.email).toBe(wanted);
    expect(await service().mails('email_change_notice', target.email)).toHaveLength(1);
    const [changed] = await service().mails('email_changed', target.email);
    expect(changed?.subject).toBe('The e-mail address of your Keycard account was changed');
    expect(changed?.textBody).toContain(wanted);
    expect((await signIn(wanted, STRONG)).isAuthenticated).toBe(true);
    expect((await signIn(target.email, STRONG)).isAuthenticated).toBe(false);
  });

  it('fails for an unknown code, a reset code and an address taken meanwhile', async () => {
    const target = await account();
    const other = await account();
    const clock = databaseClock(db());
    const taken = await issueCode(db(), clock, LIFETIMES, {
      accountId: target.id,
      type: 7,
      payload: { newEmail: other.email },
    });
    const reset = await issueCode(db(), clock, LIFETIMES, { accountId: target.id, type: 1 });
    const failed = { success: false, userFirstName: null, redirectUrl: null };
    for (const code of ['no-such-code', reset, taken])
      expect((await verifyNewEmail(code)).json()).toEqual(failed);
    expect((await findAccountById(db(), target.id))?.email).toBe(target.email);
  });
});

describe('invitation (VerifyUser)', () => {
  it('mails a link that sets the first password, after which the user signs in', async () => {
    const invited = await account(null, 'Grace Hopper');
    expect(await inviteUser(adminDeps(), invited.id)).toEqual({ outcome: 'invited' });
    const link = await onlyLink('invitation', invited.email);
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/resetPassword/6/[\\w-]{43}$`));
    const code = codeOf(link);
    const check = await api.post('/api/CheckVerification', { verificationCode: code, verificationType: 6 });
    expect(check.json()).toEqual({ isValid: true, userName: 'Grace Hopper' });
    const reset = await api.post('/api/ResetPassword', {
      verificationCode: code,
      verificationType: 6,
      newPassword: NEW_PASSWORD,
      redirectUrl: `${RP}/start`,
    });
    expect(reset.json()).toEqual({
      success: true,
      redirectUrl: `${RP}/start`,
      policyViolation: false,
      historyViolation: false,
    });
    expect((await signIn(invited.email, NEW_PASSWORD)).isAuthenticated).toBe(true);
  });
});
