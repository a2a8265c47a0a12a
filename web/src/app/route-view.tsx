import { Suspense } from 'react';
import { matchRoute, type Route } from '../routing/match-route.ts';
import { useLocation } from '../routing/navigation.tsx';
import { ErrorScreen } from '../screens/error/error-screen.tsx';
import { ExpiredLinkScreen } from '../screens/expired-link/expired-link-screen.tsx';
import { FallbackLandingScreen } from '../screens/fallback-landing/fallback-landing-screen.tsx';
import { LockedScreen } from '../screens/locked/locked-screen.tsx';
import {
  ForgotPasswordScreen,
  LogoutScreen,
  ResetPasswordScreen,
  SignInScreen,
  UnlockScreen,
  VerifyNewEmailScreen,
} from './lazy-screens.ts';

/** The screen of a route; screens with a code restart when the code changes. */
function ScreenFor({ route }: { readonly route: Route }) {
  switch (route.screen) {
    case 'signIn':
      return <SignInScreen />;
    case 'logout':
      return <LogoutScreen />;
    case 'forgotPassword':
      return <ForgotPasswordScreen />;
    case 'resetPassword':
      return (
        <ResetPasswordScreen key={route.code} verificationType={route.verificationType} code={route.code} />
      );
    case 'expiredLink':
      return <ExpiredLinkScreen />;
    case 'error':
      return <ErrorScreen />;
    case 'locked':
      return <LockedScreen />;
    case 'unlock':
      return <UnlockScreen key={route.code} code={route.code} />;
    case 'verifyNewEmail':
      return <VerifyNewEmailScreen key={route.code} code={route.code} />;
    case 'fallbackLanding':
      return <FallbackLandingScreen />;
  }
}

/**
 * Chooses the screen with Keycard's own matcher (SPEC §2: case-insensitive prefixes, `/` with the
 * ReturnUrl rule); routing/navigation supplies the location.
 */
export function RouteView() {
  const { pathname, search } = useLocation();
  return (
    <Suspense fallback={null}>
      <ScreenFor route={matchRoute(pathname, search)} />
    </Suspense>
  );
}
