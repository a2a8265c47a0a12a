import { type ComponentType, lazy } from 'react';
import type { ScreenName } from '../routing/match-route.ts';

/**
 * Screens with forms and calls are split off the start-up bundle. `preloadScreen` starts loading the
 * one a location needs while the start-up calls run, so nothing waits for it afterwards.
 */
const loaders = {
  signIn: () => import('../screens/sign-in/sign-in-screen.tsx').then((m) => m.SignInScreen),
  logout: () => import('../screens/logout/logout-screen.tsx').then((m) => m.LogoutScreen),
  forgotPassword: () =>
    import('../screens/forgot-password/forgot-password-screen.tsx').then((m) => m.ForgotPasswordScreen),
  resetPassword: () =>
    import('../screens/reset-password/reset-password-screen.tsx').then((m) => m.ResetPasswordScreen),
  unlock: () => import('../screens/unlock/unlock-screen.tsx').then((m) => m.UnlockScreen),
  verifyNewEmail: () =>
    import('../screens/verify-new-email/verify-new-email-screen.tsx').then((m) => m.VerifyNewEmailScreen),
} as const;

type LazyScreenName = keyof typeof loaders;

function isLazy(screen: ScreenName): screen is LazyScreenName {
  return Object.hasOwn(loaders, screen);
}

/** Starts loading a screen's code; errors surface when the screen renders, not here. */
export function preloadScreen(screen: ScreenName): void {
  if (isLazy(screen)) loaders[screen]().catch(() => undefined);
}

function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => ({ default: await load() }));
}

export const SignInScreen = lazyScreen(loaders.signIn);
export const LogoutScreen = lazyScreen(loaders.logout);
export const ForgotPasswordScreen = lazyScreen(loaders.forgotPassword);
export const ResetPasswordScreen = lazyScreen(loaders.resetPassword);
export const UnlockScreen = lazyScreen(loaders.unlock);
export const VerifyNewEmailScreen = lazyScreen(loaders.verifyNewEmail);
