import { THEMES } from '@keycard/contract';
import { FallbackLandingPage } from '../pages/fallback-landing-page.ts';
import { DIALOG_LABEL_KEYS } from '../pages/footer-dialogs.ts';
import { ResetPasswordPage } from '../pages/reset-password-page.ts';
import { SCREEN_ROUTES } from '../pages/screens.ts';
import { colourFindings, focusRingFindings } from '../support/contrast.ts';
import { expect, test } from '../support/fixtures.ts';
import { answerMadeUpCodes } from '../support/made-up-codes.ts';

/**
 * Issue 16 item 5: WCAG 2.2 AA contrast in both themes, read from the computed colours the browser
 * paints (4.5:1 text, 3:1 control edges and focus rings). SPEC §9 chooses the theme by local time,
 * so the clock selects it; the emulated colour-scheme preference is set to the same theme so native
 * parts (scroll bars, autofill) match what a person with that preference sees.
 */
test.describe('contrast of computed colours (WCAG 2.2 AA)', () => {
  for (const theme of THEMES) {
    test.describe(`${theme} theme`, () => {
      test.use({ theme, colorScheme: theme });

      for (const route of SCREEN_ROUTES) {
        test(`on ${route.name}: text, fields, buttons and focus rings`, async ({ page, texts }) => {
          await answerMadeUpCodes(page);
          const screen = route.screen(page);
          await screen.open();
          await expect(screen.heading).toHaveText(screen.expectedHeading(texts));
          await expect(page.locator('html')).toHaveAttribute('data-theme', theme);

          expect(await colourFindings(page)).toEqual([]);
          const rings = await focusRingFindings(page);
          // Every screen has at least the footer's three dialog buttons to reach.
          expect(rings.stops).toBeGreaterThanOrEqual(3);
          expect(rings.findings).toEqual([]);
        });
      }

      test('on the reset form showing unmet rules, a mismatch and the disabled Save', async ({
        page,
        texts,
      }) => {
        const reset = new ResetPasswordPage(page, undefined, undefined, { isValid: true, userName: 'Ada' });
        await reset.open();
        await reset.expectForm(texts);
        await reset.newPasswordField(texts).fill('abc');
        await reset.newPasswordField(texts).blur();
        await reset.confirmPasswordField(texts).fill('abd');
        await expect(reset.mismatchHint(texts)).toBeVisible();
        await expect(reset.resetButton(texts)).toBeDisabled();
        await expect(reset.page.locator('.policy__item--unmet').first()).toBeVisible();

        expect(await colourFindings(page)).toEqual([]);
      });

      test('in each footer dialog', async ({ page, texts }) => {
        const landing = new FallbackLandingPage(page);
        await landing.open();
        for (const key of DIALOG_LABEL_KEYS) {
          const dialog = await landing.footer.open(texts, key);
          await expect(dialog).toHaveAccessibleName(texts[key]);
          // The imprint's component list arrives after the dialog opens.
          await expect(dialog.getByRole('status')).toHaveCount(0);
          expect(await colourFindings(page), key).toEqual([]);
          await page.keyboard.press('Escape');
          await expect(dialog).toBeHidden();
        }
      });
    });
  }
});
