import { hasForbiddenUrlCharacter, isLocalReturnPath, MAX_REDIRECT_LENGTH } from '@keycard/contract';

/**
 * Redirect rules of DESIGN §2. A ReturnUrl is only ever a local path: that rule lives in the contract
 * (isLocalReturnPath), so the SPA applies the very same one. A RedirectUrl or post-logout target is an
 * absolute http(s) URL on the allow-list, which only the service knows. Both are checked with the same
 * URL parser the browser uses, because every open-redirect trick is a disagreement between a check and
 * a parser.
 */

/** The local path when `value` passes isLocalReturnPath, else null. */
export function localReturnPathOrNull(value: string | null | undefined): string | null {
  return isLocalReturnPath(value) ? value : null;
}

/**
 * The sign-in page (SPEC §3 `/` with a ReturnUrl) continuing the local path `returnPath`. The path is
 * percent-encoded whole, so the page's query string holds no '&' (SPEC §3).
 */
export function signInPagePath(returnPath: string): string {
  return `/?ReturnUrl=${encodeURIComponent(returnPath)}`;
}

/**
 * The normalised absolute URL when `value` is http(s), carries no credentials and its origin is allowed;
 * otherwise null. Callers fall back to DEFAULT_REDIRECT_URL.
 */
export function allowedRedirectOrNull(
  value: string | null | undefined,
  allowedOrigins: ReadonlySet<string>,
): string | null {
  if (typeof value !== 'string' || value.length > MAX_REDIRECT_LENGTH) return null;
  if (hasForbiddenUrlCharacter(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return allowedOrigins.has(url.origin) ? url.href : null;
}
