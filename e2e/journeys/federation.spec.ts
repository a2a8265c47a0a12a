import { DEMO_PRODUCT_NAME, DemoPage } from '../pages/demo-page.ts';
import { test as base, expect } from '../support/fixtures.ts';
import { BASE_URL_ENV } from '../support/paths.ts';
import { type RegisteredUpstream, startRegisteredUpstream } from '../support/upstream-idp.ts';

/**
 * Home-realm discovery and federated sign-in (DESIGN §1 Federation) from the demo relying party:
 * an address on a domain bound to an upstream provider signs in there; any other address gets the
 * password step.
 */
const test = base.extend<object, { upstream: RegisteredUpstream }>({
  upstream: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const origin = process.env[BASE_URL_ENV];
      if (!origin)
        throw new Error(`${BASE_URL_ENV} is not set: run the journeys through playwright.config.ts`);
      const upstream = await startRegisteredUpstream(origin);
      await use(upstream);
      await upstream.idp.close();
    },
    { scope: 'worker' },
  ],
});

test.describe('federated sign-in', () => {
  test('an address on a bound domain signs in at its organisation and arrives signed in with its claims', async ({
    page,
    texts,
    upstream,
  }) => {
    const signIn = await new DemoPage(page).startSignIn();
    await expect(signIn.heading).toHaveText(signIn.expectedHeading(texts, DEMO_PRODUCT_NAME));
    await signIn.emailField(texts).fill(upstream.person.email);
    await signIn.nextButton(texts).click();

    // The organisation's own sign-in page, with the address passed on as login_hint.
    await expect(page).toHaveURL((url) => url.origin === upstream.idp.issuer);
    await expect(page.getByRole('heading', { name: 'Upstream sign-in' })).toBeVisible();
    await expect(page.getByLabel('E-mail')).toHaveValue(upstream.person.email);
    await page.getByLabel('Password').fill(upstream.person.password);
    await page.getByRole('button', { name: 'Sign in upstream' }).click();

    const demo = new DemoPage(page);
    await expect(page).toHaveURL((url) => demo.isAt(url));
    await expect(demo.signedInStatus(texts, upstream.person.name)).toBeVisible();
    await expect(demo.claim('email')).toHaveText(upstream.person.email);
    await expect(demo.claim('name')).toHaveText(upstream.person.name);
  });

  test('an address on any other domain still reaches the password step', async ({
    page,
    texts,
    newAccount,
    upstream,
  }) => {
    expect(newAccount.email.endsWith(`@${upstream.domain}`)).toBe(false);
    const signIn = await new DemoPage(page).startSignIn();
    await signIn.submitEmail(texts, newAccount.email);
    await expect(signIn.passwordField(texts)).toBeVisible();
    await expect(signIn.emailField(texts)).not.toBeEditable();
    expect(new URL(page.url()).origin).not.toBe(upstream.idp.issuer);
  });
});
