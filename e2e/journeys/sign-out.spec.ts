import { LOGOUT_REDIRECT_DELAY_MS, postCalls } from '@keycard/contract';
import { DEMO_CLIENT_ID, DEMO_LOGIN_PATH, DEMO_PRODUCT_NAME, DemoPage } from '../pages/demo-page.ts';
import { LogoutPage } from '../pages/logout-page.ts';
import { SignInPage } from '../pages/sign-in-page.ts';
import { expect, test } from '../support/fixtures.ts';

const LOGOUT_CALL = postCalls.logout.path.toLowerCase();

/**
 * The browser's timer starts after /api/Logout answered, which this process sees first; the margin
 * only absorbs the delivery of the two events to it.
 */
const EVENT_DELIVERY_MARGIN_MS = 250;

test.describe('signing in and out at the demo relying party (issue 3, DESIGN §1)', () => {
  test('two-step sign-in shows the claims; sign-out says goodbye by name and returns signed out after the delay', async ({
    page,
    texts,
    demoAccount,
  }) => {
    const demo = new DemoPage(page);
    await demo.open();
    await expect(demo.heading).toHaveText(texts.demoTitle);
    await expect(demo.signedOutStatus(texts)).toBeVisible();

    // The relying party sends the browser through the authorize endpoint to the SPA's sign-in page.
    await demo.signInLink(texts).click();
    const signIn = new SignInPage(page);
    await expect(signIn.frame).toHaveAttribute('data-page-kind', 'unknownUser');
    await expect(signIn.heading).toHaveText(signIn.expectedHeading(texts, DEMO_PRODUCT_NAME));
    const signInUrl = new URL(page.url());
    expect(signInUrl.pathname).toBe('/');
    expect(signInUrl.searchParams.get('ReturnUrl')).toMatch(/^\/oidc\//);

    await signIn.submitEmail(texts, demoAccount.email);
    await expect(signIn.emailField(texts)).toHaveValue(demoAccount.email);
    await expect(signIn.emailField(texts)).not.toBeEditable();
    await signIn.submitPassword(texts, demoAccount.password);

    // Back at the relying party with the ID token of this account.
    await expect(page).toHaveURL((url) => demo.isAt(url));
    await expect(demo.signedInStatus(texts, demoAccount.name)).toBeVisible();
    await expect(demo.claimsHeading(texts)).toBeVisible();
    await expect(demo.claim('email')).toHaveText(demoAccount.email);
    await expect(demo.claim('name')).toHaveText(demoAccount.name);

    // RP-initiated logout: end-session endpoint → /logout?logoutId=… → back after the delay.
    const logoutAnswered = page.waitForResponse(
      (response) => new URL(response.url()).pathname.toLowerCase() === LOGOUT_CALL,
    );
    await demo.signOutLink(texts).click();
    const answer = await logoutAnswered;
    const answeredAt = Date.now();
    expect(answer.status()).toBe(200);
    const logoutUrl = new URL(page.url());
    expect(logoutUrl.pathname).toMatch(/^\/logout\/?$/i);
    expect(logoutUrl.searchParams.get('logoutId')).toBeTruthy();

    const logout = new LogoutPage(page);
    await expect(logout.frame).toHaveAttribute('data-page-kind', logout.pageKind);
    await expect(logout.heading).toHaveText(texts.logoff);
    await expect(logout.greeting(texts, demoAccount.name)).toBeVisible();

    await page.waitForURL((url) => demo.isAt(url));
    expect(Date.now() - answeredAt).toBeGreaterThanOrEqual(
      LOGOUT_REDIRECT_DELAY_MS - EVENT_DELIVERY_MARGIN_MS,
    );
    await expect(demo.signedOutStatus(texts)).toBeVisible();
    await expect(demo.claimsTable).toHaveCount(0);

    // The provider's session ended too: a new sign-in asks again instead of passing straight through.
    await page.goto(DEMO_LOGIN_PATH);
    await expect(signIn.frame).toHaveAttribute('data-page-kind', 'unknownUser');
    await expect(signIn.emailField(texts)).toBeEditable();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  test('a browser that is not signed in, sent to sign out, gets the goodbye page without a name', async ({
    page,
    texts,
  }) => {
    // As a relying party's sign-out link after the session has ended: the provider answers a form
    // that posts itself (its inline script allowed by hash), then the SPA's /logout page.
    await page.goto(`/oidc/session/end?${new URLSearchParams({ client_id: DEMO_CLIENT_ID })}`);
    await page.waitForURL((url) => /^\/logout\/?$/i.test(url.pathname) && url.searchParams.has('logoutId'));
    const logout = new LogoutPage(page);
    await expect(logout.frame).toHaveAttribute('data-page-kind', logout.pageKind);
    await expect(logout.heading).toHaveText(texts.logoff);
    await expect(logout.signedOutCaption(texts)).toBeVisible();
    await expect(logout.confirmButton(texts)).toHaveCount(0);
  });
});
