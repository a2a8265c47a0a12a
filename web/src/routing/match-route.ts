import { isVerificationType, VerificationType } from '@keycard/contract';
import { hasReturnUrl } from './query.ts';

/** The screen a location shows (SPEC §2), with the values its path carries. */
export type Route =
  | { readonly screen: 'signIn' }
  | { readonly screen: 'fallbackLanding' }
  | { readonly screen: 'logout' }
  | { readonly screen: 'forgotPassword' }
  | { readonly screen: 'resetPassword'; readonly verificationType: VerificationType; readonly code: string }
  | { readonly screen: 'expiredLink' }
  | { readonly screen: 'error' }
  | { readonly screen: 'locked' }
  | { readonly screen: 'unlock'; readonly code: string }
  | { readonly screen: 'verifyNewEmail'; readonly code: string };

export type ScreenName = Route['screen'];

/** Routes without path values, matched by case-insensitive prefix of the path string (SPEC §2). */
const PLAIN_ROUTES: readonly (readonly [string, Route])[] = [
  ['/logout', { screen: 'logout' }],
  ['/forgotpassword', { screen: 'forgotPassword' }],
  ['/expiredlink', { screen: 'expiredLink' }],
  ['/error', { screen: 'error' }],
  ['/locked', { screen: 'locked' }],
];

/** Routes whose last path segment is a code (SPEC §2); the prefix includes the slash before it. */
const CODE_ROUTES = [
  ['/resetpassword/', 'resetPassword'],
  ['/unlock/', 'unlock'],
  ['/verifynewemail/', 'verifyNewEmail'],
] as const;

/** Non-empty path segments after a prefix, decoded where they are valid percent-encoding. */
function segmentsAfter(pathname: string, prefixLength: number): string[] {
  return pathname
    .slice(prefixLength)
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}

/** SPEC §2: the type is the number in the second-to-last segment; no numeric type → PasswordReset. */
function resetRoute(segments: readonly string[]): Route {
  const code = segments.at(-1) ?? '';
  const typeSegment = segments.at(-2) ?? '';
  const typeNumber = /^\d+$/.test(typeSegment) ? Number(typeSegment) : Number.NaN;
  const verificationType = isVerificationType(typeNumber) ? typeNumber : VerificationType.PasswordReset;
  return { screen: 'resetPassword', verificationType, code };
}

/**
 * Chooses the screen for a location (SPEC §2). Paths match case-insensitively by prefix; `/` matches
 * exactly. Values taken from the path keep their case (codes are case-sensitive). Routes with a
 * `{code}` need at least one segment after their prefix, else the fallback landing page shows.
 */
export function matchRoute(pathname: string, search: string): Route {
  const lower = pathname.toLowerCase();
  if (lower === '/' || lower === '') {
    return { screen: hasReturnUrl(search) ? 'signIn' : 'fallbackLanding' };
  }
  for (const [prefix, route] of PLAIN_ROUTES) {
    if (lower.startsWith(prefix)) return route;
  }
  for (const [prefix, screen] of CODE_ROUTES) {
    if (!lower.startsWith(prefix)) continue;
    const segments = segmentsAfter(pathname, prefix.length);
    const code = segments.at(-1);
    if (code === undefined) break;
    return screen === 'resetPassword' ? resetRoute(segments) : { screen, code };
  }
  return { screen: 'fallbackLanding' };
}
