import { firstSupportedLanguage, usableLoginHint, usableProductName } from '@keycard/contract';

/**
 * Query readers of SPEC §3. They take `location.search` as it is ("?a=b" or "").
 * The ampersand quirk is kept exactly: when the query string holds an `&` anywhere, the
 * ReturnUrl and RedirectUrl readers answer empty, whatever the parameters are.
 */

function readEither(search: string, names: readonly [string, string]): string {
  if (search.includes('&')) return '';
  const params = new URLSearchParams(search);
  return params.get(names[0]) ?? params.get(names[1]) ?? '';
}

/** SPEC §3: `ReturnUrl` or `returnUrl`; '' when absent or when the query string contains '&'. */
export function readReturnUrl(search: string): string {
  return readEither(search, ['ReturnUrl', 'returnUrl']);
}

/** SPEC §3: `RedirectUrl` or `redirectUrl`; '' when absent or when the query string contains '&'. */
export function readRedirectUrl(search: string): string {
  return readEither(search, ['RedirectUrl', 'redirectUrl']);
}

/** SPEC §2: the sign-in page shows when the query string *has* a ReturnUrl parameter (either spelling). */
export function hasReturnUrl(search: string): boolean {
  const params = new URLSearchParams(search);
  return params.has('ReturnUrl') || params.has('returnUrl');
}

/** SPEC §2 /logout: the `logoutId` parameter, '' when absent. */
export function readLogoutId(search: string): string {
  return new URLSearchParams(search).get('logoutId') ?? '';
}

/** A parameter of the query inside a ReturnUrl (a resume path), or null when absent. */
function returnUrlParam(returnUrl: string, name: string): string | null {
  const queryStart = returnUrl.indexOf('?');
  if (queryStart < 0) return null;
  return new URLSearchParams(returnUrl.slice(queryStart + 1).split('#')[0]).get(name);
}

/**
 * SPEC §3: the `product` parameter carried inside the ReturnUrl; by default `ownName`, the product's
 * own name (the two name parts of the text resource, from SITE_FILE), which also stands in for a
 * value no client could have registered (overlong, or holding control characters).
 */
export function readProduct(returnUrl: string, ownName: string): string {
  return usableProductName(returnUrlParam(returnUrl, 'product')) ?? ownName;
}

/**
 * The relying party's `login_hint`, which the service puts inside the ReturnUrl: the e-mail the
 * sign-in page starts with. Null when absent or unusable (contract rule, checked again here because
 * anyone can write a link).
 */
export function readLoginHint(returnUrl: string): string | null {
  return usableLoginHint(returnUrlParam(returnUrl, 'login_hint'));
}

/**
 * The language of the page: the relying party's `ui_locales` carried inside the ReturnUrl (the
 * first supported one), else `browserLanguage` (SPEC §7). The query readers' ampersand rule applies.
 */
export function pageLanguage(search: string, browserLanguage: string): string {
  return firstSupportedLanguage(returnUrlParam(readReturnUrl(search), 'ui_locales')) ?? browserLanguage;
}
