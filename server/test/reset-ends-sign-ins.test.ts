import { loginResponse } from '@keycard/contract';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type HashVerifier, verifyPassword } from '../src/accounts/password-hash.ts';
import { oidcPayloads } from '../src/store/tables/index.ts';
import { type ApiClient, apiClient, codeOf, linkIn, NEW_PASSWORD, STRONG } from './recovery-kit.ts';
import {
  createAccount,
  REDIRECT_URI,
  redeemCode,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/**
 * DESIGN §2 Reset password: "all sessions of the account ended". A sign-in that has finished but
 * whose browser has not yet followed its resume link is not a session yet; these tests hold that it
 * cannot become one once the password has changed.
 */

/** What runs while the next password check is under way, once (argon2 itself decides the answer). */
let duringNextCheck: (() => Promise<void>) | null = null;
const verifyHash: HashVerifier = async (storedHash, password) => {
  const during = duringNextCheck;
  duringNextCheck = null;
  const verdict = verifyPassword(storedHash, password);
  await during?.();
  return verdict;
};

let api: ApiClient;
let serial = 0;
const service = useTestService({
  verifyHash,
  setUp: async ({ app, db }) => {
    api = await apiClient(app);
    await registerTestClient(db);
  },
});
const db = () => service().db;

async function account() {
  serial += 1;
  return createAccount(db(), `resumed-${serial}@example.com`, STRONG, 'Ada Lovelace');
}

/** A sign-in in a fresh browser, finished (the login answered) but not resumed. */
async function finishedSignIn(email: string, password: string) {
  const browser = new TestBrowser(service().app);
  const auth = await startAuthorization(browser);
  await browser.loadSpa();
  const response = await browser.post('/api/login', {
    Username: email,
    Password: password,
    ReturnUrl: auth.returnUrl,
  });
  return { browser, auth, body: loginResponse.parse(response.json()) };
}

/** Resets the account's password through the mailed link, as its owner would. */
async function resetByMail(email: string): Promise<void> {
  await api.post('/api/forgotpassword', { email, locationSearch: '' });
  const [mail] = await service().mails('password_reset', email);
  const response = await api.post('/api/ResetPassword', {
    verificationCode: codeOf(linkIn(mail?.textBody ?? '')),
    verificationType: 1,
    newPassword: NEW_PASSWORD,
    redirectUrl: null,
  });
  expect(response.json()).toMatchObject({ success: true });
}

/** Where following the resume link leads: the relying party's callback, or back to signing in. */
async function resume(browser: TestBrowser, returnUrl: string): Promise<string> {
  const response = await browser.get(returnUrl);
  expect(response.statusCode).toBe(303);
  const location = String(response.headers.location);
  expect(location.startsWith(REDIRECT_URI)).toBe(false);
  return location;
}

async function sessionsOf(accountId: string) {
  return db()
    .select()
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.type, 'Session'), sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`));
}

describe('a sign-in not yet resumed when the password changes', () => {
  it('starts no session: its resume link sends the browser to sign in again', async () => {
    const target = await account();
    const attacker = await finishedSignIn(target.email, STRONG);
    expect(attacker.body.isAuthenticated).toBe(true);

    await resetByMail(target.email);
    const next = new URL(await resume(attacker.browser, attacker.auth.returnUrl), 'http://localhost:3000');
    // The sign-in page again, for a new interaction of the same authorization request.
    expect(next.pathname).toBe('/');
    const returnUrl = next.searchParams.get('ReturnUrl');
    expect(returnUrl).toMatch(/^\/oidc\/auth\/[\w-]+/);
    expect(returnUrl).not.toBe(attacker.auth.returnUrl);
    expect(await sessionsOf(target.id)).toEqual([]);
  });

  it('starts no session when its password check overlapped the reset', async () => {
    const target = await account();
    duringNextCheck = () => resetByMail(target.email);
    const overlapping = await finishedSignIn(target.email, STRONG);
    // The old password was right when it was checked; the reset committed before the result was saved.
    expect(overlapping.body.isAuthenticated).toBe(true);

    await resume(overlapping.browser, overlapping.auth.returnUrl);
    expect(await sessionsOf(target.id)).toEqual([]);
  });

  it('leaves a sign-in with the new password, and one without any change, to resume as usual', async () => {
    const changed = await account();
    await resetByMail(changed.email);
    const unchanged = await account();
    for (const [email, password] of [
      [changed.email, NEW_PASSWORD],
      [unchanged.email, STRONG],
    ] as const) {
      const signedIn = await finishedSignIn(email, password);
      const code = await resumeToCode(signedIn.browser, signedIn.auth.returnUrl);
      const tokens = await redeemCode(service().app, code, signedIn.auth.verifier);
      expect(tokens.id_token).toBeTruthy();
    }
  });
});
