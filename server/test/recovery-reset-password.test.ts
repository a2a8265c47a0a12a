import { loginResponse, VerificationType } from '@keycard/contract';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setMustChangePassword } from '../src/accounts/account-repository.ts';
import { type CodeType, codeHash, issueCode } from '../src/codes/codes.ts';
import { databaseClock } from '../src/store/clock.ts';
import { auditEvents, oidcPayloads, passwordHistory, verificationCodes } from '../src/store/tables/index.ts';
import { type ApiClient, apiClient, codeOf, linkIn, NEW_PASSWORD, STRONG } from './recovery-kit.ts';
import { testConfig } from './support/app.ts';
import {
  createAccount,
  RP,
  redeemCode,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

const PUBLIC_URL = 'http://localhost:3000';
const DEFAULT_REDIRECT = `${PUBLIC_URL}/demo`;
const INVALID = { success: false, redirectUrl: null, policyViolation: false, historyViolation: false };
const POLICY = { success: false, redirectUrl: null, policyViolation: true, historyViolation: false };
const HISTORY = { success: false, redirectUrl: null, policyViolation: false, historyViolation: true };
let api: ApiClient;
let serial = 0;

const service = useTestService({
  env: { PASSWORD_HISTORY: '5', LOCKOUT_THRESHOLD: '5' },
  setUp: async ({ app, db }) => {
    api = await apiClient(app);
    await registerTestClient(db);
  },
});
const app = () => service().app;
const db = () => service().db;

async function account(password: string | null = STRONG) {
  serial += 1;
  return createAccount(db(), `reset-${serial}@example.com`, password, 'Ada Lovelace');
}

function codeFor(accountId: string, type: CodeType = VerificationType.PasswordReset) {
  return issueCode(db(), databaseClock(db()), testConfig().codeLifetimes, { accountId, type });
}

async function reset(code: string, newPassword: string, type: number = 1, redirectUrl: string | null = null) {
  const response = await api.post('/api/ResetPassword', {
    verificationCode: code,
    verificationType: type,
    newPassword,
    redirectUrl,
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function check(code: string, type: number = 1) {
  return (
    await api.post('/api/CheckVerification', { verificationCode: code, verificationType: type })
  ).json();
}

/** One sign-in from a fresh browser; the browser is returned signed in when it worked. */
async function signIn(email: string, password: string) {
  const browser = new TestBrowser(app());
  const auth = await startAuthorization(browser);
  await browser.loadSpa();
  const response = await browser.post('/api/login', {
    Username: email,
    Password: password,
    ReturnUrl: auth.returnUrl,
  });
  return { browser, auth, body: loginResponse.parse(response.json()) };
}

describe('POST /api/CheckVerification', () => {
  it('answers the display name for a live code and only reads it', async () => {
    const { id } = await account();
    const code = await codeFor(id);
    expect(await check(code)).toEqual({ isValid: true, userName: 'Ada Lovelace' });
    expect(await check(code)).toEqual({ isValid: true, userName: 'Ada Lovelace' });
    expect((await reset(code, NEW_PASSWORD)).success).toBe(true);
  });

  it('answers invalid for an unknown code, another type and a spent code', async () => {
    const { id } = await account();
    const code = await codeFor(id);
    expect(await check('not-a-code')).toEqual({ isValid: false, userName: null });
    expect(await check(code, 2)).toEqual({ isValid: false, userName: null });
    expect(await check(code, 3)).toEqual({ isValid: false, userName: null });
    await reset(code, NEW_PASSWORD);
    expect(await check(code)).toEqual({ isValid: false, userName: null });
  });
});

describe('POST /api/ResetPassword: password policy on the server (SPEC §5, DESIGN §2)', () => {
  it.each([
    ['11 code points, emoji counted once', 'Ab1😀😀😀😀😀😀😀😀'],
    ['no digit', 'Correct-Horse-xy'],
    ['no lowercase letter', 'CORRECT-HORSE-42'],
    ['no uppercase letter', 'correct-horse-42'],
    ['no non-alphanumeric character', 'CorrectHorse4242'],
    ['only an invisible joiner as the non-alphanumeric character', 'Correct\u200dHorse\u200d42'],
    ['more than 256 characters', `Ab1!${'x'.repeat(253)}`],
    ['a common password', 'P@ssw0rd1234'],
  ])('refuses %s with policyViolation and keeps the link usable', async (_rule, password) => {
    const { id } = await account();
    const code = await codeFor(id);
    expect(await reset(code, password)).toEqual(POLICY);
    expect(await check(code)).toMatchObject({ isValid: true });
  });

  // PASSWORD_MIN_SCORE at its default, 3: strength that knows the product and the person.
  it.each([
    ['the product name and a year', () => 'Keycard@2027'],
    ['the product name inside', () => 'MyKeycard#2026'],
    ['a common word and a year', () => 'Welcome@2026'],
    ['a common sequence', () => 'Aa123456789!'],
    ['a keyboard walk', () => 'Zaq12wsx!@#$'],
    ['the e-mail address plus 1', (email: string) => `${email}1`],
    ['the local part plus !1A', (email: string) => `${email.split('@')[0]}!1A`],
    ['the display name and a year', () => 'AdaLovelace2026!'],
    ['the display name, turned round', () => 'Lovelace#Ada1'],
    ['the display name, spaced out', () => 'Ada-Lovelace-99'],
  ])('refuses a weak password, %s, with policyViolation and keeps the link usable', async (_what, build) => {
    serial += 1;
    const email = `Ada.Lovelace${serial}@example.com`;
    const { id } = await createAccount(db(), email, STRONG, 'Ada Lovelace');
    const code = await codeFor(id);
    expect(await reset(code, build(email))).toEqual(POLICY);
    expect(await check(code)).toMatchObject({ isValid: true });
  });

  it('refuses the account’s own e-mail address as password', async () => {
    serial += 1;
    const email = `Pass.Word${serial}@Example.com`;
    const { id } = await createAccount(db(), email, STRONG);
    expect(await reset(await codeFor(id), email.toLowerCase())).toEqual(POLICY);
  });

  it.each([
    ['12 code points with emoji', 'Kv9#mP2$😀🎉🌍🚀'],
    ['128 characters', `Kv9#mP2$xQ7!${'x'.repeat(116)}`],
    ['256 characters, the most there may be', `Kv9#mP2$xQ7!${'x'.repeat(244)}`],
    ['256 code points, most of them emoji', `Kv9#mP2$xQ7!${'😀'.repeat(244)}`],
  ])('accepts %s', async (_name, password) => {
    const { id } = await account();
    expect(await reset(await codeFor(id), password)).toMatchObject({ success: true, policyViolation: false });
  });
});

describe('POST /api/ResetPassword: history (DESIGN §2)', () => {
  it('refuses the current and an earlier password by verifying stored hashes, and accepts a new one', async () => {
    const { id } = await account();
    expect((await reset(await codeFor(id), NEW_PASSWORD)).success).toBe(true);
    const rows = await db().select().from(passwordHistory).where(eq(passwordHistory.accountId, id));
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain(STRONG);
    expect(rows.every((row) => row.passwordHash.startsWith('$argon2id$'))).toBe(true);

    const code = await codeFor(id);
    expect(await reset(code, STRONG)).toEqual(HISTORY);
    expect(await reset(code, NEW_PASSWORD)).toEqual(HISTORY);
    expect(await reset(code, 'Third-Secret-Phrase-9')).toMatchObject({ success: true });
  });
});

describe('POST /api/ResetPassword: success', () => {
  it('changes the password, ends every session, clears the lock and sends the notice', async () => {
    const target = await account();
    const signedIn = await signIn(target.email, STRONG);
    expect(signedIn.body.isAuthenticated).toBe(true);
    await redeemCode(
      app(),
      await resumeToCode(signedIn.browser, signedIn.auth.returnUrl),
      signedIn.auth.verifier,
    );
    const ofAccount = sql`${oidcPayloads.payload}->>'accountId' = ${target.id}`;
    const before = await db().select().from(oidcPayloads).where(ofAccount);
    expect(before.map((row) => row.type)).toEqual(expect.arrayContaining(['Session', 'Grant']));

    for (let n = 0; n < 5; n++) await signIn(target.email, 'Wrong-Password-1');
    expect((await signIn(target.email, STRONG)).body.verificationType).toBe(
      VerificationType.LockedAfterTooManyFailedAttempts,
    );

    await api.post('/api/forgotpassword', { email: target.email, locationSearch: '' });
    const [mail] = await service().mails('password_reset', target.email);
    const code = codeOf(linkIn(mail?.textBody ?? ''));
    expect(await reset(code, NEW_PASSWORD, 1, `${RP}/welcome-back`)).toEqual({
      success: true,
      redirectUrl: `${RP}/welcome-back`,
      policyViolation: false,
      historyViolation: false,
    });

    expect(await db().select().from(oidcPayloads).where(ofAccount)).toEqual([]);
    for (const { type, grantId } of before.filter((row) => row.grantId)) {
      expect(
        await db()
          .select()
          .from(oidcPayloads)
          .where(and(eq(oidcPayloads.type, type), eq(oidcPayloads.grantId, grantId ?? ''))),
      ).toEqual([]);
    }
    expect((await signIn(target.email, STRONG)).body).toMatchObject({
      isAuthenticated: false,
      verificationType: 0,
    });
    expect((await signIn(target.email, NEW_PASSWORD)).body.isAuthenticated).toBe(true);
    expect(await service().mails('password_changed', target.email)).toHaveLength(1);
    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'password_reset'), eq(auditEvents.accountId, target.id)));
    expect(events.map((event) => event.outcome)).toEqual(['success']);
  });

  it('answers the invalid shape for an unknown, spent or expired code', async () => {
    const { id } = await account();
    const code = await codeFor(id);
    expect(await reset('unknown-code', NEW_PASSWORD)).toEqual(INVALID);
    expect((await reset(code, NEW_PASSWORD)).success).toBe(true);
    expect(await reset(code, 'Another-Secret-55')).toEqual(INVALID);
    const stale = await codeFor(id);
    await db()
      .update(verificationCodes)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(verificationCodes.codeHash, codeHash(stale)));
    expect(await reset(stale, 'Another-Secret-55')).toEqual(INVALID);
  });

  it.each([
    ['type 1 with a registered RedirectUrl', 1, `${RP}/home?x=1`, `${RP}/home?x=1`],
    ['type 1 with a foreign RedirectUrl', 1, 'https://evil.test/', DEFAULT_REDIRECT],
    ['type 1 with a script URL', 1, 'javascript:alert(1)', DEFAULT_REDIRECT],
    ['type 1 without RedirectUrl', 1, null, DEFAULT_REDIRECT],
    ['type 6 with a registered RedirectUrl', 6, `${RP}/first`, `${RP}/first`],
    ['type 6 with a local path', 6, '/oidc/auth/x', DEFAULT_REDIRECT],
    [
      'type 2 with a local ReturnUrl',
      2,
      '/oidc/auth/abc?product=Planner',
      `${PUBLIC_URL}/?ReturnUrl=%2Foidc%2Fauth%2Fabc%3Fproduct%3DPlanner`,
    ],
    ['type 2 with a protocol-relative ReturnUrl', 2, '//evil.test/x', DEFAULT_REDIRECT],
    ['type 2 with an absolute ReturnUrl', 2, 'https://evil.test/x', DEFAULT_REDIRECT],
  ])('answers an absolute http(s) redirect for %s', async (_name, type, redirectUrl, expected) => {
    const { id } = await account(type === 6 ? null : STRONG);
    const answer = await reset(await codeFor(id, type as CodeType), NEW_PASSWORD, type, redirectUrl);
    expect(answer).toEqual({
      success: true,
      redirectUrl: expected,
      policyViolation: false,
      historyViolation: false,
    });
    expect(new URL(answer.redirectUrl).protocol).toMatch(/^https?:$/);
  });

  it('leads an expired-password reset back to the sign-in page, where the new password signs in', async () => {
    const target = await account();
    await setMustChangePassword(db(), target.id);
    const expired = await signIn(target.email, STRONG);
    expect(expired.body.verificationType).toBe(VerificationType.PasswordExpired);
    const code = expired.body.verificationCode ?? '';
    expect(await check(code, 2)).toEqual({ isValid: true, userName: 'Ada Lovelace' });
    const answer = await reset(code, NEW_PASSWORD, 2, expired.auth.returnUrl);
    expect(answer.redirectUrl).toBe(`${PUBLIC_URL}/?ReturnUrl=${encodeURIComponent(expired.auth.returnUrl)}`);
    const again = await expired.browser.post('/api/login', {
      Username: target.email,
      Password: NEW_PASSWORD,
      ReturnUrl: new URL(answer.redirectUrl).searchParams.get('ReturnUrl'),
    });
    expect(loginResponse.parse(again.json()).isAuthenticated).toBe(true);
  });
});
