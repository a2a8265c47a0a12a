import {
  anyPath,
  prefix,
  prefixWithReference,
  root,
  withCode,
  withTypeAndCode,
} from '../routing/path-patterns.ts';
import { hasReturnUrl } from '../routing/query.ts';
import { ErrorScreen } from '../screens/error/error-screen.tsx';
import { ExpiredLinkScreen } from '../screens/expired-link/expired-link-screen.tsx';
import { FallbackLandingScreen } from '../screens/fallback-landing/fallback-landing-screen.tsx';
import { LockedScreen } from '../screens/locked/locked-screen.tsx';
import { defineRoute, eagerScreen, lazyScreen } from './route-entry.tsx';

/**
 * The SPA's routes (SPEC §2), tried in this order; the first whose path pattern matches shows its
 * screen. Paths match case-insensitively by prefix, `/` exactly. The page kind is the one the screen
 * opens with (SPEC §3); the title key names its heading. Screens with forms or calls load lazily.
 */
export const ROUTES = [
  defineRoute({
    name: 'signIn',
    path: root(hasReturnUrl),
    screen: lazyScreen(() => import('../screens/sign-in/sign-in-screen.tsx').then((m) => m.SignInScreen)),
    // After a failed login the screen switches to wrongPasswordUnknownUser itself (SPEC §4).
    pageKind: 'unknownUser',
    titleKey: 'loginWelcome',
  }),
  defineRoute({
    name: 'logout',
    path: prefix('/logout'),
    screen: lazyScreen(() => import('../screens/logout/logout-screen.tsx').then((m) => m.LogoutScreen)),
    pageKind: 'userLogoff',
    titleKey: 'logoff',
  }),
  defineRoute({
    name: 'forgotPassword',
    path: prefix('/forgotPassword'),
    screen: lazyScreen(() =>
      import('../screens/forgot-password/forgot-password-screen.tsx').then((m) => m.ForgotPasswordScreen),
    ),
    pageKind: 'forgotPassword',
    titleKey: 'forgotPassword',
  }),
  defineRoute({
    name: 'resetPassword',
    path: withTypeAndCode('/resetPassword/'),
    screen: lazyScreen(() =>
      import('../screens/reset-password/reset-password-screen.tsx').then((m) => m.ResetPasswordScreen),
    ),
    pageKind: 'resetPassword',
    titleKey: 'resetPassword',
  }),
  defineRoute({
    name: 'expiredLink',
    path: prefix('/expiredLink'),
    screen: eagerScreen(ExpiredLinkScreen),
    pageKind: 'expiredLink',
    titleKey: 'passwordLinkExpired',
  }),
  defineRoute({
    name: 'error',
    // A refused sign-in request lands on /error/{reference}: the reference of its log line.
    path: prefixWithReference('/error'),
    screen: eagerScreen(ErrorScreen),
    // SPEC §3 has no error page kind; the page uses the fallback landing page's background.
    pageKind: 'fallbackLandingPage',
    titleKey: 'errorTitle',
  }),
  defineRoute({
    name: 'locked',
    path: prefix('/locked'),
    screen: eagerScreen(LockedScreen),
    pageKind: 'userLockedAfterTooManyFailedAttempts',
    titleKey: 'lockedAfterTooManyFailedAttempts',
  }),
  defineRoute({
    name: 'unlock',
    path: withCode('/unlock/'),
    screen: lazyScreen(() => import('../screens/unlock/unlock-screen.tsx').then((m) => m.UnlockScreen)),
    pageKind: 'unlock',
    titleKey: 'unlockInProgress',
  }),
  defineRoute({
    name: 'verifyNewEmail',
    path: withCode('/verifyNewEmail/'),
    screen: lazyScreen(() =>
      import('../screens/verify-new-email/verify-new-email-screen.tsx').then((m) => m.VerifyNewEmailScreen),
    ),
    pageKind: 'emailVerification',
    titleKey: 'verifyingEmail',
  }),
  defineRoute({
    name: 'fallbackLanding',
    path: anyPath,
    screen: eagerScreen(FallbackLandingScreen),
    pageKind: 'fallbackLandingPage',
    titleKey: 'fallbackWelcome',
  }),
] as const;
