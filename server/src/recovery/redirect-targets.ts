import { isLocalReturnPath } from '@keycard/contract';
import { registeredOrigins } from '../oidc/clients.ts';
import { allowedRedirectOrNull, signInPagePath } from '../redirects/redirect-rules.ts';
import type { RecoveryDeps } from './recovery-deps.ts';

type RedirectDeps = Pick<RecoveryDeps, 'db' | 'publicUrl' | 'defaultRedirectUrl'>;

/** DESIGN §2 Redirect rules: origins registered for a client, plus the configured ones. */
export async function redirectAllowList(deps: RedirectDeps): Promise<Set<string>> {
  const origins = await registeredOrigins(deps.db);
  origins.add(new URL(deps.publicUrl).origin);
  origins.add(new URL(deps.defaultRedirectUrl).origin);
  return origins;
}

/** A RedirectUrl on the allow-list, else DEFAULT_REDIRECT_URL: always an absolute http(s) URL. */
export async function redirectOrDefault(
  deps: RedirectDeps,
  value: string | null | undefined,
): Promise<string> {
  return allowedRedirectOrNull(value, await redirectAllowList(deps)) ?? deps.defaultRedirectUrl;
}

/**
 * Where an expired-password reset leads (DESIGN §2): the absolute sign-in page carrying the original
 * ReturnUrl, so the person signs in again with the new password; the default without a valid one.
 */
export function signInPageOrDefault(deps: RedirectDeps, returnUrl: string | null | undefined): string {
  if (!isLocalReturnPath(returnUrl)) return deps.defaultRedirectUrl;
  return `${deps.publicUrl}${signInPagePath(returnUrl)}`;
}

function firstOf(params: URLSearchParams, names: readonly string[]): string | null {
  for (const name of names) {
    const value = params.get(name);
    if (value !== null) return value;
  }
  return null;
}

/**
 * The query a reset link keeps from the forgot-password page's `locationSearch`: only a ReturnUrl or
 * RedirectUrl that passes the redirect rules. One parameter at most, because the SPA's readers
 * (SPEC §3) ignore both when the query holds an ampersand; the RedirectUrl wins, as it is what a
 * reset page sends back.
 */
export async function resetLinkQuery(
  deps: RedirectDeps,
  locationSearch: string | null | undefined,
): Promise<string> {
  // Stryker disable next-line StringLiteral: any stand-in for a missing query holds neither a RedirectUrl nor a ReturnUrl
  const params = new URLSearchParams(locationSearch ?? '');
  const redirectUrl = allowedRedirectOrNull(
    firstOf(params, ['RedirectUrl', 'redirectUrl']),
    await redirectAllowList(deps),
  );
  if (redirectUrl !== null) return `?${new URLSearchParams({ RedirectUrl: redirectUrl })}`;
  const returnUrl = firstOf(params, ['ReturnUrl', 'returnUrl']);
  if (isLocalReturnPath(returnUrl)) return `?${new URLSearchParams({ ReturnUrl: returnUrl })}`;
  return '';
}
