import { LANGUAGES } from '@keycard/contract';
import { DemoPage } from '../pages/demo-page.ts';
import { DoneState } from '../pages/done-state.ts';
import { UnlockPage } from '../pages/unlock-page.ts';
import { axeViolations } from '../support/axe.ts';
import { callAnswer, nextCall } from '../support/calls.ts';
import { expect, LOCALE, languageRun, test } from '../support/fixtures.ts';
import { mailLanguage, mailLink, waitForMail } from '../support/mailbox.ts';
import { defaultRedirectUrl, followDelayedRedirect, seenAt, withClockRunning } from '../support/recovery.ts';
import { expectSignedIn, lockBySignIn } from '../support/sign-in-steps.ts';

/** Issue 4: lock at sign-in → unlock mail → unlock page → sign in (DESIGN §2 Login, SPEC §4 Unlock). */

test.describe('unlocking a locked account by the mailed link', () => {
  for (const language of LANGUAGES) {
    test.describe(`${language} (${LOCALE[language]})`, languageRun(language), () => {
      test.use({ locale: LOCALE[language], theme: language === 'en' ? 'light' : 'dark' });

      test('the lock mails an unlock link; the unlock page greets by name, leads to the default redirect, and the password signs in again; locked anew, the used link says it expired', async ({
        page,
        baseURL,
        texts,
        newAccount,
      }) => {
        const locked = await lockBySignIn(page, texts, newAccount.email, newAccount.password);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await expect(locked.frame).toHaveAttribute('data-page-kind', locked.pageKind);

        // The account has no language of its own: the mail follows the sign-in's request (mail-language.ts).
        const mail = await waitForMail(newAccount.email);
        expect
          .soft(mailLanguage(mail), "the unlock mail is in the language of the sign-in's request")
          .toBe(language);
        expect(mail.text).toContain(newAccount.name);
        const link = mailLink(mail, '/unlock/');
        expect(new URL(link).search).toBe('');

        const unlocked = nextCall(page, 'unlockUser');
        await page.goto(link);
        const answer = await callAnswer('unlockUser', await unlocked);
        expect(answer).toEqual({
          success: true,
          userName: newAccount.name,
          linkExpired: false,
          redirectUrl: defaultRedirectUrl(baseURL ?? ''),
        });
        const unlock = new UnlockPage(page);
        const done = new DoneState(page);
        const shownAt = await seenAt(done.countdown);
        await expect(unlock.frame).toHaveAttribute('data-page-kind', unlock.pageKind);
        await expect(unlock.heading).toHaveText(unlock.successHeading(texts, newAccount.name));
        expect(await withClockRunning(page, () => axeViolations(page)), 'unlock success').toEqual([]);

        const demo = new DemoPage(page);
        await followDelayedRedirect(
          page,
          shownAt,
          async () => {
            await expect(unlock.heading).toHaveText(unlock.successHeading(texts, newAccount.name));
            // Counted down (the page's clock moved on), and said only once.
            await expect(done.countdown).not.toHaveText(done.countdownText(texts, 13));
            await expect(done.announcement).toHaveText(done.announcementText(texts, 13));
          },
          (url) => url.href === defaultRedirectUrl(baseURL ?? ''),
        );
        await expect(demo.signInLink(texts)).toBeVisible();

        await expectSignedIn(page, texts, newAccount, newAccount.password);

        // DESIGN §2 Codes: the link acts on load and stays good within its lifetime (a mail scanner
        // may have opened it first), so opening it again shows the same success.
        // This time the button goes on at once: the page's clock does not move, so no delay passed.
        await page.goto(link);
        // The header names what happened and takes focus; 12.5 s are counted down from 13, said once.
        await done.expectShown(texts, unlock.successHeading(texts, newAccount.name), 13);
        await done.continueButton(texts).click();
        await page.waitForURL((url) => url.href === defaultRedirectUrl(baseURL ?? ''));
        // Signed in just above, so the application greets the person.
        await expect(demo.signedInStatus(texts, newAccount.name)).toBeVisible();

        // Locked again: the used link no longer claims success but says it expired (SPEC §4, §8),
        // with the ways on: forgot password and the sign-in (the new lock mailed a link of its own).
        await page.context().clearCookies();
        await lockBySignIn(page, texts, newAccount.email, newAccount.password);
        await page.goto(link);
        await expect(unlock.heading).toHaveText(texts.passwordLinkExpired);
        await expect(page.getByRole('main').getByText(texts.unlockLinkExpired)).toBeVisible();
        await expect(page.getByRole('link', { name: texts.forgotPasswordLabel })).toBeVisible();
        await expect(page.getByRole('link', { name: texts.goToLoginLabel })).toBeVisible();
        expect(await axeViolations(page), 'unlock link expired').toEqual([]);
      });
    });
  }
});
