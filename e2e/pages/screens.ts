import { VerificationType } from '@keycard/contract';
import type { Page } from '@playwright/test';
import { ErrorPage } from './error-page.ts';
import { ExpiredLinkPage } from './expired-link-page.ts';
import { FallbackLandingPage } from './fallback-landing-page.ts';
import { ForgotPasswordPage } from './forgot-password-page.ts';
import { LockedPage } from './locked-page.ts';
import { LogoutPage } from './logout-page.ts';
import type { PageFrame } from './page-frame.ts';
import { ResetPasswordPage } from './reset-password-page.ts';
import { SignInPage } from './sign-in-page.ts';
import { UnlockPage } from './unlock-page.ts';
import { VerifyNewEmailPage } from './verify-new-email-page.ts';

/** One route of SPEC §2 and the page object of the screen it opens. */
export interface ScreenRoute {
  /** Short name, used in test titles and artifact file names. */
  readonly name: string;
  readonly screen: (page: Page) => PageFrame;
}

/**
 * Every route of SPEC §2, each at a path that exercises its rule. The sign-out and reset screens
 * need a live session or a mailed code to stay on their page; here their check is answered so the
 * page frame can be examined (the journeys of those flows use real sessions and codes).
 */
export const SCREEN_ROUTES: readonly ScreenRoute[] = [
  { name: 'fallback-landing', screen: (page) => new FallbackLandingPage(page, '/') },
  { name: 'sign-in', screen: (page) => new SignInPage(page) },
  {
    name: 'logout',
    screen: (page) =>
      new LogoutPage(page, '/logout/?logoutId=e2e-logout-id', {
        username: 'Ada',
        postLogoutRedirectUri: null,
      }),
  },
  { name: 'forgot-password', screen: (page) => new ForgotPasswordPage(page) },
  {
    name: 'reset-password',
    screen: (page) =>
      new ResetPasswordPage(page, VerificationType.PasswordReset, 'e2e-reset-code', {
        isValid: true,
        userName: 'Ada',
      }),
  },
  { name: 'expired-link', screen: (page) => new ExpiredLinkPage(page) },
  { name: 'error', screen: (page) => new ErrorPage(page) },
  { name: 'locked', screen: (page) => new LockedPage(page) },
  { name: 'unlock', screen: (page) => new UnlockPage(page) },
  { name: 'verify-new-email', screen: (page) => new VerifyNewEmailPage(page) },
  { name: 'unknown-path', screen: (page) => new FallbackLandingPage(page) },
];
