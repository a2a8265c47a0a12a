import { LANGUAGES, VerificationType } from '@keycard/contract';
import { DemoPage } from '../pages/demo-page.ts';
import { DoneState } from '../pages/done-state.ts';
import { ForgotPasswordPage } from '../pages/forgot-password-page.ts';
import { ResetPasswordPage } from '../pages/reset-password-page.ts';
import { strongPassword } from '../support/accounts.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, LOCALE, languageRun, test } from '../support/fixtures.ts';
import { mailLanguage, mailLink, waitForMail, waitForMails } from '../support/mailbox.ts';
import {
  defaultRedirectUrl,
  followDelayedRedirect,
  seenAt,
  throughService,
  withClockRunning,
} from '../support/recovery.ts';
import { expectPasswordRefused, expectSignedIn } from '../support/sign-in-steps.ts';

/** Issue 4: forgot password → mail → link → reset → sign in with the new password only. */

const RESET_LINK_PATH = `/resetPassword/${VerificationType.PasswordReset}/`;

test.describe('forgot password from the sign-in page (DESIGN §2 Forgot password, SPEC §4)', () => {
  for (const language of LANGUAGES) {
    test.describe(`${language} (${LOCALE[language]})`, languageRun(language), () => {
      test.use({ locale: LOCALE[language], theme: language === 'en' ? 'dark' : 'light' });

      test('the mailed link keeps the ReturnUrl, resets the password and leads to the default redirect; only the new password signs in', async ({
        page,
        baseURL,
        texts,
        newAccount,
      }) => {
        await new DemoPage(page).startSignIn();
        const returnUrl = new URL(page.url()).searchParams.get('ReturnUrl');
        expect(returnUrl).toMatch(/^\/oidc\//);
        await page.getByRole('link', { name: texts.forgotPasswordLabel, exact: true }).click();

        const forgot = new ForgotPasswordPage(page);
        await expect(forgot.frame).toHaveAttribute('data-page-kind', forgot.pageKind);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await expect(forgot.heading).toHaveText(texts.forgotPassword);
        expect(new URL(page.url()).searchParams.get('ReturnUrl')).toBe(returnUrl);
        await expect(forgot.emailField(texts)).toBeEditable();
        expect(await axeViolations(page), 'forgot-password form').toEqual([]);

        await forgot.requestReset(texts, newAccount.email);
        await expect(forgot.checkYourEmail(texts)).toBeVisible();
        await expect(forgot.emailField(texts)).toHaveCount(0);
        await expect(forgot.heading).toBeFocused();
        expect(await axeViolations(page), 'forgot-password thank-you').toEqual([]);

        // The mail: to the account, in the request's language (the account has none), by name.
        const mail = await waitForMail(newAccount.email);
        expect(mailLanguage(mail)).toBe(language);
        expect(mail.text).toContain(newAccount.name);
        const link = new URL(mailLink(mail, RESET_LINK_PATH));
        expect(link.origin).toBe(baseURL);
        expect([...link.searchParams.keys()]).toEqual(['ReturnUrl']);
        expect(link.searchParams.get('ReturnUrl')).toBe(returnUrl);

        await page.goto(link.href);
        const reset = new ResetPasswordPage(page, VerificationType.PasswordReset);
        await reset.expectForm(texts);
        await expect(
          page.getByRole('main').getByText(texts.resetPasswordIntro, { exact: true }),
        ).toBeVisible();

        const newPassword = strongPassword();
        const answer = await reset.choosePassword(texts, newPassword);
        expect(answer).toEqual({
          success: true,
          redirectUrl: defaultRedirectUrl(baseURL ?? ''),
          policyViolation: false,
          historyViolation: false,
        });
        const shownAt = await seenAt(reset.successCaption(texts));
        const done = new DoneState(page);
        await done.expectShown(texts, texts.passwordChangedTitle, 13);
        await expect(reset.newPasswordField(texts)).toHaveCount(0);
        await expect(reset.resetButton(texts)).toHaveCount(0);
        expect(await withClockRunning(page, () => axeViolations(page)), 'reset success').toEqual([]);

        // A reset link carries no RedirectUrl here, so the reset leads to the default.
        const demo = new DemoPage(page);
        await followDelayedRedirect(
          page,
          shownAt,
          () => expect(done.countdown).not.toHaveText(done.countdownText(texts, 13)),
          (url) => url.href === defaultRedirectUrl(baseURL ?? ''),
        );
        await expect(demo.signInLink(texts)).toBeVisible();

        // The notice that the password changed, in the language of the reset's request.
        const [, changed] = await waitForMails(newAccount.email, 2);
        expect(changed?.subject).not.toBe(mail.subject);
        expect(changed && mailLanguage(changed)).toBe(language);
        expect(changed?.text).toContain(newAccount.name);

        await expectPasswordRefused(page, texts, newAccount.email, newAccount.password);
        await expectSignedIn(page, texts, newAccount, newPassword);
      });
    });
  }

  test.describe('with a RedirectUrl, de (de-DE)', () => {
    test.use({ locale: LOCALE.de });

    test('a RedirectUrl of the forgot-password page goes into the link and is where the reset leads', async ({
      page,
      baseURL,
      texts,
      newAccount,
    }) => {
      const redirectUrl = `${baseURL}/demo?after=reset`;
      const query = `?RedirectUrl=${encodeURIComponent(redirectUrl)}`;
      const forgot = new ForgotPasswordPage(page, `/forgotPassword${query}`);
      await forgot.open();
      await expect(forgot.rememberedPasswordLink(texts)).toHaveAttribute(
        'href',
        throughService(baseURL ?? '', redirectUrl),
      );
      await forgot.requestReset(texts, newAccount.email);

      const mail = await waitForMail(newAccount.email);
      expect(mailLanguage(mail)).toBe('de');
      const link = new URL(mailLink(mail, RESET_LINK_PATH));
      expect(link.search).toBe(query);

      await page.goto(link.href);
      const reset = new ResetPasswordPage(page, VerificationType.PasswordReset);
      await reset.expectForm(texts);
      const newPassword = strongPassword();
      const answer = await reset.choosePassword(texts, newPassword);
      expect(answer).toMatchObject({ success: true, redirectUrl });
      const shownAt = await seenAt(reset.successCaption(texts));
      await followDelayedRedirect(
        page,
        shownAt,
        () => expect(reset.successCaption(texts)).toBeVisible(),
        (url) => url.href === redirectUrl,
      );

      await expectSignedIn(page, texts, newAccount, newPassword);
    });
  });
});
