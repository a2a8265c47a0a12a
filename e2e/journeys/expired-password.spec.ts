import { LANGUAGES, VerificationType } from '@keycard/contract';
import { DemoPage } from '../pages/demo-page.ts';
import { DoneState } from '../pages/done-state.ts';
import { ResetPasswordPage } from '../pages/reset-password-page.ts';
import { loginAnswer, SignInPage } from '../pages/sign-in-page.ts';
import { strongPassword } from '../support/accounts.ts';
import { expirePassword } from '../support/admin.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, LOCALE, languageRun, test } from '../support/fixtures.ts';
import { mailLanguage, textLinks, waitForMail, waitForMails } from '../support/mailbox.ts';
import {
  followDelayedRedirect,
  MAIL_DEFAULT_LANGUAGE,
  seenAt,
  withClockRunning,
} from '../support/recovery.ts';

/**
 * Issue 4: an administrator makes the password expire; the next sign-in leads to the expired-password
 * reset, whose success goes back to the same sign-in (DESIGN §2 Reset password), where the new
 * password reaches the relying party.
 */

test.describe('an expired password at sign-in', () => {
  for (const language of LANGUAGES) {
    test.describe(`${language} (${LOCALE[language]})`, languageRun(language), () => {
      test.use({ locale: LOCALE[language], theme: language === 'en' ? 'dark' : 'light' });

      test('is replaced on /ResetPassword/2/<code> (validation, history, common and weak passwords refused), then the same sign-in goes on with the new one', async ({
        page,
        baseURL,
        texts,
        newAccount,
      }) => {
        await expirePassword(newAccount.email);
        // The owner is told, without a link; an admin command has no request, so the default language.
        const notice = await waitForMail(newAccount.email);
        expect(mailLanguage(notice)).toBe(MAIL_DEFAULT_LANGUAGE);
        expect(notice.text).toContain(newAccount.name);
        expect(textLinks(notice).filter((link) => link.startsWith(baseURL ?? ''))).toEqual([]);

        const signIn = await new DemoPage(page).startSignIn();
        const query = new URL(page.url()).search;
        const returnUrl = new URL(page.url()).searchParams.get('ReturnUrl') ?? '';
        const expired = await loginAnswer(await signIn.signIn(texts, newAccount.email, newAccount.password));
        expect(expired).toMatchObject({
          isAuthenticated: false,
          verificationType: VerificationType.PasswordExpired,
        });
        const code = expired.verificationCode ?? '';
        await expect(page).toHaveURL(
          (url) => url.pathname === `/ResetPassword/2/${encodeURIComponent(code)}` && url.search === query,
        );

        const reset = new ResetPasswordPage(page, VerificationType.PasswordExpired, code);
        await reset.expectForm(texts);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await expect(
          page.getByRole('main').getByText(texts.expiredPasswordResetIntro, { exact: true }),
        ).toBeVisible();

        // SPEC §5: validation starts once the new-password field is left holding a value.
        const newField = reset.newPasswordField(texts);
        const confirmField = reset.confirmPasswordField(texts);
        await newField.fill('short1');
        await expect(newField).not.toHaveAttribute('aria-invalid');
        await confirmField.focus();
        await expect(newField).toHaveAttribute('aria-invalid', 'true');
        await confirmField.fill('short2');
        await expect(confirmField).toHaveAttribute('aria-invalid', 'true');
        await expect(reset.mismatchHint(texts)).toBeVisible();
        await expect(reset.policyList(texts).getByRole('listitem')).toHaveCount(5);
        await expect(reset.resetButton(texts)).toBeDisabled();
        expect(await axeViolations(page), 'reset form with validation shown').toEqual([]);

        // DESIGN §2: the current password is in the history, so the server refuses it; the link stays good.
        await reset.fillPasswords(texts, newAccount.password);
        await expect(newField).toHaveAttribute('aria-invalid', 'false');
        await expect(confirmField).toHaveAttribute('aria-invalid', 'false');
        await expect(reset.mismatchHint(texts)).toHaveCount(0);
        const refused = await reset.choosePassword(texts, newAccount.password);
        expect(refused).toMatchObject({ success: false, historyViolation: true, policyViolation: false });
        await expect(reset.alert).toHaveText(texts.passwordHistoryViolation);
        expect(await axeViolations(page), 'reset form with the history violation').toEqual([]);

        // DESIGN §2: a well-formed password on the shipped list of common ones is a policy violation.
        const common = await reset.choosePassword(texts, 'P@ssw0rd1234');
        expect(common).toMatchObject({ success: false, historyViolation: false, policyViolation: true });
        await expect(reset.alert).toHaveText(texts.passwordPolicyViolation);
        expect(await axeViolations(page), 'reset form with the policy violation').toEqual([]);

        // Strength that knows the context: the form's estimate, loaded on demand, rates the product's
        // name as no strength, and the service refuses the password as too weak.
        await reset.fillPasswords(texts, 'MyKeycard#2026');
        await expect(reset.strengthLevel(texts)).toHaveText(texts.passwordStrengthWeak);
        const weak = await reset.choosePassword(texts, 'MyKeycard#2026');
        expect(weak).toMatchObject({ success: false, historyViolation: false, policyViolation: true });
        expect(await axeViolations(page), 'reset form with the strength estimate').toEqual([]);

        const newPassword = strongPassword();
        const answer = await reset.choosePassword(texts, newPassword);
        const signInPageUrl = `${baseURL}/?ReturnUrl=${encodeURIComponent(returnUrl)}`;
        expect(answer).toEqual({
          success: true,
          redirectUrl: signInPageUrl,
          policyViolation: false,
          historyViolation: false,
        });
        const shownAt = await seenAt(reset.successCaption(texts));
        await new DoneState(page).expectShown(texts, texts.passwordChangedTitle, 13);
        await expect(newField).toHaveCount(0);
        expect(
          await withClockRunning(page, () => axeViolations(page)),
          'expired-password reset success',
        ).toEqual([]);

        await followDelayedRedirect(
          page,
          shownAt,
          () => expect(reset.successCaption(texts)).toBeVisible(),
          (url) => url.href === signInPageUrl,
        );
        const again = new SignInPage(page);
        await expect(again.frame).toHaveAttribute('data-page-kind', 'unknownUser');
        await again.signIn(texts, newAccount.email, newPassword);
        const demo = new DemoPage(page);
        await expect(page).toHaveURL((url) => demo.isAt(url));
        await expect(demo.signedInStatus(texts, newAccount.name)).toBeVisible();
        await expect(demo.claim('email')).toHaveText(newAccount.email);
        await expect(demo.claim('name')).toHaveText(newAccount.name);

        // The notice of the change follows the reset's request.
        const [, changed] = await waitForMails(newAccount.email, 2);
        expect(changed && mailLanguage(changed)).toBe(language);
        expect(changed?.subject).not.toBe(notice.subject);
      });
    });
  }
});
