import { THEMES } from '@keycard/contract';
import { DemoPage } from '../pages/demo-page.ts';
import { uniqueEmail } from '../support/accounts.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, test } from '../support/fixtures.ts';

test.describe('axe-core finds no violations during a real sign-in', () => {
  for (const theme of THEMES) {
    test.describe(`${theme} theme`, () => {
      test.use({ theme });

      test('on step 1, on step 2 and in the wrong-password state', async ({ page, texts }) => {
        const signIn = await new DemoPage(page).startSignIn();
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        await expect(signIn.emailField(texts)).toBeEditable();
        expect(await axeViolations(page), 'step 1').toEqual([]);

        // An address nobody has: its failure counter is this test's alone (DESIGN §2).
        await signIn.submitEmail(texts, uniqueEmail(`axe ${theme}`));
        expect(await axeViolations(page), 'step 2').toEqual([]);

        await signIn.submitPassword(texts, 'Not-the-password-1!');
        await expect(signIn.alert).toHaveText(texts.wrongPasswordOrUnknownUser);
        await expect(signIn.frame).toHaveAttribute('data-page-kind', 'wrongPasswordUnknownUser');
        expect(await axeViolations(page), 'wrong password').toEqual([]);
      });
    });
  }
});
