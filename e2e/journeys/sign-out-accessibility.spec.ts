import { THEMES } from '@keycard/contract';
import { DEMO_PATH, DemoPage } from '../pages/demo-page.ts';
import { LogoutPage } from '../pages/logout-page.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, test } from '../support/fixtures.ts';

test.describe('axe-core finds no violations on the logout page of a real sign-out', () => {
  for (const theme of THEMES) {
    test.describe(`${theme} theme`, () => {
      test.use({ theme });

      test('after the goodbye, before the redirect', async ({ page, texts, demoAccount }) => {
        const demo = new DemoPage(page);
        const signIn = await demo.startSignIn();
        await signIn.signIn(texts, demoAccount.email, demoAccount.password);
        await expect(demo.signOutLink(texts)).toBeVisible();

        // The redirect back to the relying party waits until axe is done: the page must stay put.
        let release: () => void = () => undefined;
        const analysed = new Promise<void>((resolve) => {
          release = resolve;
        });
        await page.route(
          (url) => url.pathname === DEMO_PATH,
          async (route) => {
            await analysed;
            await route.continue();
          },
        );

        await demo.signOutLink(texts).click();
        const logout = new LogoutPage(page);
        await expect(logout.greeting(texts, demoAccount.name)).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        try {
          expect(await axeViolations(page)).toEqual([]);
        } finally {
          release();
        }
        await expect(page).toHaveURL((url) => demo.isAt(url));
        await expect(demo.signedOutStatus(texts)).toBeVisible();
      });
    });
  }
});
