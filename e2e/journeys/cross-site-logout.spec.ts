import { LOGOUT_REDIRECT_DELAY_MS, postCalls } from '@keycard/contract';
import type { Page } from '@playwright/test';
import { DEMO_LOGIN_PATH, DEMO_PATH, DemoPage } from '../pages/demo-page.ts';
import { LogoutPage } from '../pages/logout-page.ts';
import { SignInPage } from '../pages/sign-in-page.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, test } from '../support/fixtures.ts';
import { expectSignedIn } from '../support/sign-in-steps.ts';

const LOGOUT_CALL = postCalls.logout.path.toLowerCase();
/** The browser's timer starts after /api/Logout answered, which this process sees first (sign-out.spec.ts). */
const EVENT_DELIVERY_MARGIN_MS = 250;
/** The demo relying party's registration (server/src/demo/demo-setup.ts). */
const DEMO_CLIENT_ID = 'keycard-demo';
/** A site of its own: another registrable domain than the service's 127.0.0.1, so truly cross-site. */
const OTHER_SITE = 'http://elsewhere.test';

/**
 * A page of another site sends the browser to the end-session endpoint with only a client_id, as any
 * page can (the browser serves it from this process: the name needs no DNS). Its link is followed by
 * a real click, a top-level cross-site navigation that carries the service's SameSite=Lax cookies.
 */
async function openFromOtherSite(page: Page, baseURL: string, params: Record<string, string>) {
  const endSession = new URL(`/oidc/session/end?${new URLSearchParams(params)}`, baseURL);
  await page.route(`${OTHER_SITE}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Elsewhere</title><a href="${endSession.href}">Win a prize</a>`,
    }),
  );
  await page.goto(`${OTHER_SITE}/prize`);
  await page.getByRole('link', { name: 'Win a prize' }).click();
}

/** A form the other site's page posts to `path`, submitted by a click: a cross-site POST. */
async function postFromOtherSite(page: Page, baseURL: string, path: string, params: Record<string, string>) {
  const endpoint = new URL(path, baseURL);
  const fields = Object.entries(params)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join('');
  await page.route(`${OTHER_SITE}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Elsewhere</title><form method="post" action="${endpoint.href}">${fields}<button>Win a prize</button></form>`,
    }),
  );
  await page.goto(`${OTHER_SITE}/prize`);
  await page.getByRole('button', { name: 'Win a prize' }).click();
}

/** Whether the provider's session lives: the demo's sign-in passes straight through to it. */
async function expectProviderSession(page: Page, alive: boolean): Promise<void> {
  await page.goto(DEMO_LOGIN_PATH);
  if (alive) {
    await expect(page).toHaveURL((url) => url.pathname === DEMO_PATH);
  } else {
    await expect(new SignInPage(page).frame).toHaveAttribute('data-page-kind', 'unknownUser');
    expect(new URL(page.url()).pathname).toBe('/');
  }
}

test.describe('a sign-out started by another site asks first (issue 15, RP-Initiated Logout 1.0 §2)', () => {
  test('declining keeps the session; confirming signs out and follows the post-logout URI after the delay', async ({
    page,
    baseURL,
    texts,
    demoAccount,
  }) => {
    const origin = baseURL ?? '';
    await expectSignedIn(page, texts, demoAccount, demoAccount.password);
    const logout = new LogoutPage(page);

    // Declined: nothing ended, and the page stays where it is.
    await openFromOtherSite(page, origin, { client_id: DEMO_CLIENT_ID });
    await expect(logout.heading).toHaveText(texts.logoutConfirmTitle);
    await expect(logout.heading).toBeFocused();
    await expect(page.getByText(texts.logoutConfirmText, { exact: true })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await logout.declineButton(texts).click();
    await expect(logout.heading).toHaveText(texts.logoutDeclined);
    await expect(logout.heading).toBeFocused();
    await expect(logout.greeting(texts, demoAccount.name)).toHaveCount(0);
    await expectProviderSession(page, true);

    // Confirmed from the keyboard: signed out, then back at the relying party's post-logout URI.
    await openFromOtherSite(page, origin, {
      client_id: DEMO_CLIENT_ID,
      post_logout_redirect_uri: new URL(DEMO_PATH, origin).href,
    });
    await expect(logout.heading).toHaveText(texts.logoutConfirmTitle);
    await page.keyboard.press('Tab');
    await expect(logout.confirmButton(texts)).toBeFocused();
    const confirmed = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname.toLowerCase() === LOGOUT_CALL &&
        response.request().postDataJSON()?.confirmed === true,
    );
    await page.keyboard.press('Enter');
    expect((await confirmed).status()).toBe(200);
    const answeredAt = Date.now();
    await expect(logout.heading).toHaveText(texts.logoff);
    await expect(logout.greeting(texts, demoAccount.name)).toBeVisible();
    await page.waitForURL((url) => new DemoPage(page).isAt(url));
    expect(Date.now() - answeredAt).toBeGreaterThanOrEqual(
      LOGOUT_REDIRECT_DELAY_MS - EVENT_DELIVERY_MARGIN_MS,
    );
    await expectProviderSession(page, false);
  });

  test('a form another site posts to end-session asks first, as its link does', async ({
    page,
    baseURL,
    texts,
    demoAccount,
  }) => {
    await expectSignedIn(page, texts, demoAccount, demoAccount.password);
    const answered = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && new URL(response.url()).pathname === '/oidc/session/end',
    );
    await postFromOtherSite(page, baseURL ?? '', '/oidc/session/end', { client_id: DEMO_CLIENT_ID });
    // A SameSite=Lax session cookie does not travel on a cross-site POST: the service answers it with
    // the same request as a GET, a top-level navigation the cookie goes with (OpenID Connect takes POST).
    const response = await answered;
    expect(response.status()).toBe(303);
    const logout = new LogoutPage(page);
    await expect(logout.heading).toHaveText(texts.logoutConfirmTitle);
    await logout.declineButton(texts).click();
    await expect(logout.heading).toHaveText(texts.logoutDeclined);
    await expectProviderSession(page, true);
  });

  test('a sign-in request another site posts finds the session: prompt=none comes back with a code', async ({
    page,
    baseURL,
    texts,
    demoAccount,
  }) => {
    const origin = baseURL ?? '';
    await expectSignedIn(page, texts, demoAccount, demoAccount.password);
    const callback = page.waitForRequest((request) => new URL(request.url()).pathname === '/demo/callback');
    await postFromOtherSite(page, origin, '/oidc/auth', {
      client_id: DEMO_CLIENT_ID,
      response_type: 'code',
      redirect_uri: new URL('/demo/callback', origin).href,
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state: 'posted-state',
      prompt: 'none',
    });
    const answer = new URL((await callback).url()).searchParams;
    expect(answer.get('error')).toBeNull();
    expect(answer.get('state')).toBe('posted-state');
    expect(answer.get('code')).toMatch(/\S{20,}/);
  });
});
