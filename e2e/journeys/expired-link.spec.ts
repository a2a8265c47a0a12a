import { randomBytes } from 'node:crypto';
import { VerificationType } from '@keycard/contract';
import { DemoPage } from '../pages/demo-page.ts';
import { ExpiredLinkPage } from '../pages/expired-link-page.ts';
import { FallbackLandingPage } from '../pages/fallback-landing-page.ts';
import { ForgotPasswordPage } from '../pages/forgot-password-page.ts';
import { ResetPasswordPage } from '../pages/reset-password-page.ts';
import { strongPassword } from '../support/accounts.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, LOCALE, test } from '../support/fixtures.ts';
import { mailLanguage, mailLink, waitForMail } from '../support/mailbox.ts';
import { throughService } from '../support/recovery.ts';

/**
 * Issue 4: a reset link whose code cannot be used (made up, spent, superseded or expired, DESIGN §2
 * Codes) leads to /ExpiredLink?RedirectUrl=… (SPEC §4), whose two links work. Every such code counts
 * against the service's per-IP guessing limit (20 per 15 minutes), shared by all journeys of a run,
 * which all come from 127.0.0.1: past it, every code looks invalid. So each journey uses few.
 */

/** A code of the right shape (256 bits, base64url) that was never issued. */
function madeUpCode(): string {
  return randomBytes(32).toString('base64url');
}

const RESET_PATH = `/resetPassword/${VerificationType.PasswordReset}/`;

test.describe('an expired or invalid reset link', () => {
  test.describe('en (en-US)', () => {
    test.use({ locale: LOCALE.en });

    test('without a RedirectUrl: the login link leads to the start page, the forgot-password link mails a new reset link', async ({
      page,
      texts,
      newAccount,
    }) => {
      await page.goto(`${RESET_PATH}${madeUpCode()}`);
      const expired = new ExpiredLinkPage(page);
      await expect(page).toHaveURL(
        (url) => url.pathname === '/ExpiredLink' && url.search === '?RedirectUrl=',
      );
      await expect(expired.frame).toHaveAttribute('data-page-kind', expired.pageKind);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(expired.heading).toHaveText(texts.passwordLinkExpired);
      // Moved here from the reset page once its check answered: the heading has focus, not <body>.
      await expect(expired.heading).toBeFocused();
      await expect(
        page.getByRole('main').getByText(texts.passwordLinkExpiredText, { exact: true }),
      ).toBeVisible();
      expect(await axeViolations(page), 'expired link').toEqual([]);

      // SPEC §2: the login link goes to the RedirectUrl target, here none, so the start page.
      await expect(expired.loginLink(texts)).toHaveAttribute('href', '/');
      await expired.loginLink(texts).click();
      const landing = new FallbackLandingPage(page, '/');
      await expect(page).toHaveURL((url) => url.pathname === '/' && url.search === '');
      await expect(landing.frame).toHaveAttribute('data-page-kind', landing.pageKind);
      await expect(landing.heading).toHaveText(texts.fallbackWelcome);

      await page.goBack();
      await expired.forgotPasswordLink(texts).click();
      const forgot = new ForgotPasswordPage(page);
      await expect(page).toHaveURL(
        (url) => url.pathname === '/forgotPassword' && url.search === '?RedirectUrl=',
      );
      await expect(forgot.frame).toHaveAttribute('data-page-kind', forgot.pageKind);
      await expect(forgot.heading).toHaveText(texts.forgotPassword);
      await forgot.requestReset(texts, newAccount.email);
      const mail = await waitForMail(newAccount.email);
      expect(mailLanguage(mail)).toBe('en');
      expect(new URL(mailLink(mail, RESET_PATH)).search).toBe('');
    });
  });

  test.describe('de (de-DE)', () => {
    test.use({ locale: LOCALE.de, theme: 'light' });

    test('a spent reset link that carried a RedirectUrl: the forgot-password link keeps it, the login link goes there', async ({
      page,
      baseURL,
      texts,
      newAccount,
    }) => {
      const redirectUrl = `${baseURL}/demo?after=expired-link`;
      const query = `?RedirectUrl=${encodeURIComponent(redirectUrl)}`;
      // A real link, used once (DESIGN §2 Codes: single use).
      const requested = new ForgotPasswordPage(page, `/forgotPassword${query}`);
      await requested.open();
      await requested.requestReset(texts, newAccount.email);
      const link = mailLink(await waitForMail(newAccount.email), RESET_PATH);
      expect(new URL(link).search).toBe(query);
      await page.goto(link);
      const reset = new ResetPasswordPage(page, VerificationType.PasswordReset);
      await reset.expectForm(texts);
      expect(await reset.choosePassword(texts, strongPassword())).toMatchObject({ success: true });

      await page.goto(link);
      const expired = new ExpiredLinkPage(page);
      await expect(page).toHaveURL((url) => url.pathname === '/ExpiredLink' && url.search === query);
      await expect(expired.frame).toHaveAttribute('data-page-kind', expired.pageKind);
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      await expect(expired.heading).toHaveText(texts.passwordLinkExpired);
      await expect(
        page.getByRole('main').getByText(texts.passwordLinkExpiredText, { exact: true }),
      ).toBeVisible();
      expect(await axeViolations(page), 'expired link').toEqual([]);

      await expired.forgotPasswordLink(texts).click();
      const forgot = new ForgotPasswordPage(page);
      await expect(page).toHaveURL((url) => url.pathname === '/forgotPassword' && url.search === query);
      await expect(forgot.heading).toHaveText(texts.forgotPassword);
      await expect(forgot.rememberedPasswordLink(texts)).toHaveAttribute(
        'href',
        throughService(baseURL ?? '', redirectUrl),
      );

      await page.goBack();
      await expect(expired.loginLink(texts)).toHaveAttribute(
        'href',
        throughService(baseURL ?? '', redirectUrl),
      );
      await expired.loginLink(texts).click();
      const demo = new DemoPage(page);
      await expect(page).toHaveURL(redirectUrl);
      await expect(demo.signInLink(texts)).toBeVisible();
    });
  });
});
