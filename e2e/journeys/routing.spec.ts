import { type CallResponse, VerificationType } from '@keycard/contract';
import type { Page } from '@playwright/test';
import { ErrorPage } from '../pages/error-page.ts';
import { ExpiredLinkPage } from '../pages/expired-link-page.ts';
import { FallbackLandingPage } from '../pages/fallback-landing-page.ts';
import { ForgotPasswordPage } from '../pages/forgot-password-page.ts';
import { LockedPage } from '../pages/locked-page.ts';
import { LogoutPage } from '../pages/logout-page.ts';
import type { PageFrame } from '../pages/page-frame.ts';
import { ResetPasswordPage } from '../pages/reset-password-page.ts';
import { SignInPage } from '../pages/sign-in-page.ts';
import { UnlockPage } from '../pages/unlock-page.ts';
import { VerifyNewEmailPage } from '../pages/verify-new-email-page.ts';
import { expect, test } from '../support/fixtures.ts';
import { throughService } from '../support/recovery.ts';

/** The code check answered as valid, so the reset form's frame stays (a made-up code is invalid). */
const VALID_CODE: CallResponse<'checkVerification'> = { isValid: true, userName: 'Ada' };

test.describe('the ReturnUrl rule of `/` (SPEC §2)', () => {
  const cases: readonly (readonly [string, string])[] = [
    ['/?ReturnUrl=%2F', 'unknownUser'],
    ['/?returnUrl=%2F', 'unknownUser'],
    // The & rule empties the ReturnUrl *reader*; the route only asks whether the parameter exists.
    ['/?ReturnUrl=/x&a=1', 'unknownUser'],
    ['/?ReturnUrl=', 'unknownUser'],
    ['/', 'fallbackLandingPage'],
    ['/?logoutId=1', 'fallbackLandingPage'],
  ];
  for (const [path, pageKind] of cases) {
    test(`${path} shows page kind ${pageKind}`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator('[data-page-kind]')).toHaveAttribute('data-page-kind', pageKind);
    });
  }

  test('the sign-in welcome names the product carried in the ReturnUrl', async ({ page, texts }) => {
    const signIn = new SignInPage(page, `/?ReturnUrl=${encodeURIComponent('/oidc/resume?product=Planner')}`);
    await signIn.open();
    await expect(signIn.heading).toHaveText(signIn.expectedHeading(texts, 'Planner'));
  });
});

test.describe('routes are case-insensitive prefixes (SPEC §2)', () => {
  const cases: readonly (readonly [string, (page: Page) => PageFrame])[] = [
    ['/FORGOTPASSWORD', (page) => new ForgotPasswordPage(page)],
    ['/forgotpassword/', (page) => new ForgotPasswordPage(page)],
    ['/ExpiredLink?RedirectUrl=https%3A%2F%2Fplanner.example.com%2F', (page) => new ExpiredLinkPage(page)],
    ['/ERROR', (page) => new ErrorPage(page)],
    ['/Locked/anything/below', (page) => new LockedPage(page)],
    ['/UNLOCK/Some-Code', (page) => new UnlockPage(page)],
    ['/VerifyNewEmail/Some-Code', (page) => new VerifyNewEmailPage(page)],
    [
      '/RESETPASSWORD/1/Some-Code',
      (page) => new ResetPasswordPage(page, VerificationType.PasswordReset, 'Some-Code', VALID_CODE),
    ],
    ['/definitely/not/a/route', (page) => new FallbackLandingPage(page)],
  ];
  for (const [path, screenAt] of cases) {
    test(`${path} opens its screen`, async ({ page, texts }) => {
      const screen = screenAt(page);
      await screen.open(path);
      await expect(screen.frame).toHaveAttribute('data-page-kind', screen.pageKind);
      await expect(screen.heading).toHaveText(screen.expectedHeading(texts));
    });
  }

  test('the reset heading follows the verification type in the path', async ({ page, texts }) => {
    const types = [
      VerificationType.PasswordReset,
      VerificationType.PasswordExpired,
      VerificationType.VerifyUser,
    ] as const;
    for (const type of types) {
      const reset = new ResetPasswordPage(page, type, 'e2e-reset-code', VALID_CODE);
      await reset.open();
      await expect(reset.heading).toHaveText(reset.expectedHeading(texts));
    }
    // No numeric type before the code: a PasswordReset (SPEC §2).
    const untyped = new ResetPasswordPage(page, VerificationType.PasswordReset, 'only-a-code', VALID_CODE);
    await untyped.open('/resetPassword/only-a-code');
    await expect(untyped.heading).toHaveText(texts.resetPassword);
  });
});

test.describe('pages complete in this release', () => {
  test('the fallback landing page explains and lists three suggestions, the first with this host', async ({
    page,
    texts,
    baseURL,
  }) => {
    const landing = new FallbackLandingPage(page);
    await landing.open();
    await expect(page.getByRole('main').getByText(texts.incorrectAccess, { exact: true })).toBeVisible();
    await expect(landing.suggestions).toHaveCount(3);
    await expect(landing.suggestions.first()).toContainText(new URL(baseURL ?? '').host);
  });

  test('a sign-out with an unknown logoutId ends on the error page (SPEC §4)', async ({ page, texts }) => {
    await new LogoutPage(page).open('/logout/?logoutId=no-such-logout');
    const error = new ErrorPage(page);
    await expect(page).toHaveURL(/\/Error$/i);
    await expect(error.heading).toHaveText(texts.errorTitle);
    await expect(error.message(texts)).toBeVisible();
  });

  test('the error page an outage sends a person to says the service is temporarily unavailable', async ({
    page,
    texts,
  }) => {
    const error = new ErrorPage(page, '/error/7K2M9QXD?reason=unavailable');
    await error.open();
    await expect(error.heading).toHaveText(texts.errorTitle);
    await expect(error.message(texts)).toBeVisible();
    await expect(error.unavailable(texts)).toBeVisible();
    await new ErrorPage(page, '/error/7K2M9QXD').open();
    await expect(error.unavailable(texts)).toHaveCount(0);
  });

  test.describe('in English', () => {
    test.use({ locale: 'en-US' });

    test('the error page reads "We\'re sorry!" and "Something went wrong."', async ({ page, texts }) => {
      const error = new ErrorPage(page);
      await error.open();
      await expect(error.heading).toHaveText("We're sorry!");
      await expect(error.message(texts)).toHaveText('Something went wrong.');
    });
  });

  test('the locked page links to forgot password and back to the sign-in page, keeping the query', async ({
    page,
    texts,
  }) => {
    const query = `?ReturnUrl=${encodeURIComponent('/oidc/resume?product=Planner')}`;
    const locked = new LockedPage(page, `/locked/${query}`);
    await locked.open();
    await expect(locked.loginLink(texts)).toHaveAttribute('href', `/${query}`);
    await locked.forgotPasswordLink(texts).click();
    const forgot = new ForgotPasswordPage(page);
    await expect(forgot.frame).toHaveAttribute('data-page-kind', forgot.pageKind);
    expect(new URL(page.url()).search).toBe(query);
  });

  test('the expired-link page links to forgot password and to the RedirectUrl target, through the service', async ({
    page,
    texts,
    baseURL,
  }) => {
    const target = 'https://planner.example.com/start';
    const expired = new ExpiredLinkPage(page, `/ExpiredLink?RedirectUrl=${encodeURIComponent(target)}`);
    await expired.open();
    await expect(expired.loginLink(texts)).toHaveAttribute('href', throughService(baseURL ?? '', target));
    await expect(expired.forgotPasswordLink(texts)).toHaveAttribute(
      'href',
      `/forgotPassword?RedirectUrl=${encodeURIComponent(target)}`,
    );
  });
});
