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
 * published keys, the userinfo endpoint, and RP-initiated logout back to the application.
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
  });
  await adminApi('POST', '/clients', {
    id: clientId,
    name: 'Python Planner',
    redirectUris: [`${started.url}/callback`],
    postLogoutUris: [`${started.url}/signed-out`],
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
  test(`a ${kind} Python client signs in with PKCE, reads userinfo and signs out`, async ({
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
    const subject = await idToken.locator('[data-claim="sub"]').textContent();
    await expect(userinfo.locator('[data-claim="sub"]')).toHaveText(subject ?? '');

    await page.getByRole('link', { name: 'Sign out' }).click();
    const logout = new LogoutPage(page);
    await expect(logout.greeting(texts, newAccount.name)).toBeVisible();
    await expect(page).toHaveURL((at) => at.href === `${rp?.url}/signed-out`, { timeout: 15_000 });
    await expect(page.getByRole('heading', { name: 'Signed out' })).toBeVisible();
  });
}
