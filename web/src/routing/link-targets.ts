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

/** The forgot-password page, keeping the query string (it carries the ReturnUrl/RedirectUrl). */
export function forgotPasswordTarget(search: string): string {
  return `/forgotPassword${search}`;
}

/**
 * Locked page login link: with a ReturnUrl the sign-in page with the query string as it is; else the
 * RedirectUrl; else the start page.
 */
export function lockedLoginTarget(search: string): string {
  if (hasReturnUrl(search)) return `/${search}`;
  return safeTarget(readRedirectUrl(search)) || '/';
}

/** Expired-link page login link: the RedirectUrl target, or '/' when there is none (SPEC §2). */
export function redirectLoginTarget(search: string): string {
  return safeTarget(readRedirectUrl(search)) || '/';
}
