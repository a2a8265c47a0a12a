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

/**
 * SPEC §3: the `product` parameter carried inside the ReturnUrl; by default `ownName`, the product's
 * own name (the two name parts of the text resource, from SITE_FILE).
 */
export function readProduct(returnUrl: string, ownName: string): string {
  const queryStart = returnUrl.indexOf('?');
  if (queryStart < 0) return ownName;
  const product = new URLSearchParams(returnUrl.slice(queryStart + 1).split('#')[0]).get('product');
  return product?.trim() ? product : ownName;
}
