import { THEMES } from '@keycard/contract';
import { FallbackLandingPage } from '../pages/fallback-landing-page.ts';
import { DIALOG_LABEL_KEYS } from '../pages/footer-dialogs.ts';
import { SCREEN_ROUTES } from '../pages/screens.ts';
import { SignInPage } from '../pages/sign-in-page.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, LOCALE, test } from '../support/fixtures.ts';

test.describe('axe-core finds no violations', () => {
  for (const theme of THEMES) {
    test.describe(`${theme} theme`, () => {
      test.use({ theme });

      for (const route of SCREEN_ROUTES) {
        test(`on ${route.name}`, async ({ page, texts }) => {
          const screen = route.screen(page);
          await screen.open();
          await expect(screen.heading).toHaveText(screen.expectedHeading(texts));
          expect(await axeViolations(page)).toEqual([]);
        });
      }

      for (const key of DIALOG_LABEL_KEYS) {
        test(`with the ${key} dialog open`, async ({ page, texts }) => {
          const landing = new FallbackLandingPage(page);
          await landing.open();
          await expect(await landing.footer.open(texts, key)).toHaveAccessibleName(texts[key]);
          expect(await axeViolations(page)).toEqual([]);
        });
      }
    });
  }

  test.describe('in German', () => {
    test.use({ locale: LOCALE.de });

    test('on the sign-in page', async ({ page, texts }) => {
      const signIn = new SignInPage(page);
      await signIn.open();
      await expect(signIn.heading).toHaveText(signIn.expectedHeading(texts));
      expect(await axeViolations(page)).toEqual([]);
    });
  });
});
