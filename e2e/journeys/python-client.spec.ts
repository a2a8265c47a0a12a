import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { LogoutPage } from '../pages/logout-page.ts';
import { SignInPage } from '../pages/sign-in-page.ts';
import { expect, test } from '../support/fixtures.ts';
import { type PythonRelyingParty, startPythonRelyingParty } from '../support/python-rp.ts';

/**
 * A relying party written outside Node, with Python's Authlib as the planning product's sibling
 * apps might use it (issue: real client libraries must work against Keycard unchanged): discovery,
 * the authorization code flow with PKCE (S256), state and nonce, the ID token verified against the
 * published keys, the userinfo endpoint, refresh tokens (rotated on every use; the replaced one,
 * presented again, is refused and ends the grant), RP-initiated logout back to the application, and the logout
 * token the application receives on its back channel (Back-Channel Logout 1.0), verified by Authlib.
 */

let rp: PythonRelyingParty | undefined;

test.afterEach(async () => {
  await rp?.stop();
  rp = undefined;
});

async function registerAndStart(
  adminApi: (method: string, path: string, body?: unknown) => Promise<unknown>,
  baseURL: string,
  confidential: boolean,
): Promise<PythonRelyingParty> {
  const clientId = `python-rp-${randomBytes(4).toString('hex')}`;
  const secret = confidential ? randomBytes(24).toString('hex') : undefined;
  // The port is only known once the application runs; it is registered before anyone signs in.
  const started = await startPythonRelyingParty({
    issuer: `${baseURL}/oidc`,
    clientId,
    ...(secret ? { clientSecret: secret } : {}),
    scope: 'openid email profile offline_access',
    prompt: 'consent',
  });
  await adminApi('POST', '/clients', {
    id: clientId,
    name: 'Python Planner',
    redirectUris: [`${started.url}/callback`],
    postLogoutUris: [`${started.url}/signed-out`],
    backchannelLogoutUri: `${started.url}/backchannel-logout`,
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    ...(secret ? { secret } : {}),
  });
  return started;
}

async function signInThrough(page: Page, url: string) {
  await page.goto(url);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL((at) => at.pathname === '/' && at.searchParams.has('ReturnUrl'));
  const at = new URL(page.url());
  return new SignInPage(page, `${at.pathname}${at.search}`);
}

for (const kind of ['public', 'confidential'] as const) {
  test(`a ${kind} Python client signs in with PKCE, reads userinfo, refreshes, signs out and gets the back-channel logout`, async ({
    page,
    texts,
    newAccount,
    adminApi,
    baseURL,
  }) => {
    rp = await registerAndStart(adminApi, baseURL ?? '', kind === 'confidential');
    const signIn = await signInThrough(page, rp.url);
    await expect(signIn.heading).toHaveText(signIn.expectedHeading(texts, 'Python Planner'));
    await signIn.submitEmail(texts, newAccount.email);
    await signIn.submitPassword(texts, newAccount.password);

    await expect(page.getByRole('heading', { name: 'Signed in' })).toBeVisible();
    const idToken = page.getByRole('table', { name: 'ID token' });
    const userinfo = page.getByRole('table', { name: 'Userinfo' });
    await expect(idToken.locator('[data-claim="iss"]')).toHaveText(`${baseURL}/oidc`);
    await expect(idToken.locator('[data-claim="email"]')).toHaveText(newAccount.email);
    await expect(userinfo.locator('[data-claim="email"]')).toHaveText(newAccount.email);
    await expect(userinfo.locator('[data-claim="name"]')).toHaveText(newAccount.name);
    const subject = (await idToken.locator('[data-claim="sub"]').textContent()) ?? '';
    await expect(userinfo.locator('[data-claim="sub"]')).toHaveText(subject);
    const session = (await idToken.locator('[data-claim="sid"]').textContent()) ?? '';
    expect(session).not.toBe('');

    // Refresh: a new refresh token each time, the ID token of the same person.
    await page.getByRole('link', { name: 'Refresh' }).click();
    await expect(page.locator('[data-refreshes]')).toHaveAttribute('data-refreshes', '1');
    await page.getByRole('link', { name: 'Refresh' }).click();
    await expect(page.locator('[data-refreshes]')).toHaveAttribute('data-refreshes', '2');
    await expect(idToken.locator('[data-claim="sub"]')).toHaveText(subject);
    await expect(userinfo.locator('[data-claim="email"]')).toHaveText(newAccount.email);

    // The refresh token the last refresh replaced is refused, and its whole grant ends with it.
    await page.goto(`${rp.url}/reuse`);
    await expect(page.getByRole('alert')).toHaveAttribute('data-error', 'invalid_grant');
    await page.goto(`${rp.url}/refresh`);
    await expect(page.getByRole('alert')).toHaveAttribute('data-error', 'invalid_grant');
    await page.goto(rp.url);

    await page.getByRole('link', { name: 'Sign out' }).click();
    const logout = new LogoutPage(page);
    await expect(logout.greeting(texts, newAccount.name)).toBeVisible();
    await expect(page).toHaveURL((at) => at.href === `${rp?.url}/signed-out`, { timeout: 15_000 });
    await expect(page.getByRole('heading', { name: 'Signed out' })).toBeVisible();

    // The sign-out above never waited for it: the logout token arrives from the service's queue.
    const received = page.getByRole('table', { name: 'Back-channel logouts' }).locator('tr:has(td)');
    await expect(async () => {
      await page.goto(`${rp?.url}/backchannel-logouts`);
      await expect(received).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(received.locator('[data-field="sub"]')).toHaveText(subject);
    await expect(received.locator('[data-field="sid"]')).toHaveText(session);
  });
}
