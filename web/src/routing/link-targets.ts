import { isLocalReturnPath } from '@keycard/contract';
import { hasReturnUrl, readRedirectUrl } from './query.ts';

/**
 * Where the links of the locked and expired-link pages lead (SPEC §2). Targets that come from the
 * query are only used when they are a local path or an http(s) URL, so a crafted link cannot turn
 * into a `javascript:` or protocol-relative href. What a local path is, is the service's rule
 * (DESIGN §2), taken from the contract so the two never disagree.
 */

/** True for an absolute http or https URL (SPEC §5), never a script or data URL. */
export function isHttpUrl(target: string): boolean {
  try {
    const { protocol } = new URL(target);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** The target itself when it is safe to put in an href, else ''. */
export function safeTarget(target: string): string {
  return isLocalReturnPath(target) || isHttpUrl(target) ? target : '';
}

/** SPEC §7: "the identity base plus" a path; the base may end in a slash or be '' (same origin). */
export function identityUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

/**
 * The service's way to DEFAULT_REDIRECT_URL, or to a RedirectUrl it allows (DESIGN §2): it answers 303
 * there. Equal to `getCalls.defaultRedirect` (a test pins it); repeated because `getCalls` lives
 * beside the zod schemas, which the screens linking here do not otherwise load.
 */
export const DEFAULT_REDIRECT_PATH = '/api/DefaultRedirect';

/**
 * Where a link to the application a RedirectUrl names leads (DESIGN §2 Redirect rules): a local path
 * as it is; an http(s) URL through the service, which sends the browser there only when its origin
 * is registered for a client or configured, and to the default otherwise, since anyone can write a
 * link to this page with any RedirectUrl and only the service knows the allow-list; anything else
 * ''. Always absolute when it goes through the service, so no link takes it for a page of the SPA.
 */
export function applicationTarget(redirectUrl: string, base: string): string {
  if (isLocalReturnPath(redirectUrl)) return redirectUrl;
  if (!isHttpUrl(redirectUrl)) return '';
  const service = new URL(identityUrl(base, DEFAULT_REDIRECT_PATH), window.location.href);
  service.search = new URLSearchParams({ RedirectUrl: redirectUrl }).toString();
  return service.href;
}

/** The forgot-password page, keeping the query string (it carries the ReturnUrl/RedirectUrl). */
export function forgotPasswordTarget(search: string): string {
  return `/forgotPassword${search}`;
}

/**
 * Locked page login link: with a ReturnUrl the sign-in page with the query string as it is; else the
 * RedirectUrl's application (applicationTarget); else the start page.
 */
export function lockedLoginTarget(search: string, base: string): string {
  if (hasReturnUrl(search)) return `/${search}`;
  return applicationTarget(readRedirectUrl(search), base) || '/';
}

/** Expired-link page login link: the RedirectUrl's application, or '/' when there is none (SPEC §2). */
export function redirectLoginTarget(search: string, base: string): string {
  return applicationTarget(readRedirectUrl(search), base) || '/';
}
