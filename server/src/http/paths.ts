/** Path tests shared by the hooks; case-insensitive because a wrong-case /API/ must not reach the SPA. */

export function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

function under(url: string, prefix: string): boolean {
  const path = pathOf(url).toLowerCase();
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The JSON API of SPEC §7. */
export function isApiPath(url: string): boolean {
  return under(url, '/api');
}

/** The OpenID Connect provider's endpoints (DESIGN §1); never answered by the SPA. */
export function isOidcPath(url: string): boolean {
  return under(url, '/oidc');
}

/** The admin HTTP API (DESIGN §1 Provisioning); never answered by the SPA. */
export function isAdminApiPath(url: string): boolean {
  return under(url, '/admin/api');
}

/** The load balancer's probes (health.ts); never answered by the SPA. */
export function isHealthPath(url: string): boolean {
  return under(url, '/health');
}

/** A percent-escape of an unreserved character (RFC 3986 §2.3: letter, digit, "-", ".", "_", "~"). */
const ESCAPED_UNRESERVED = /%(4[1-9A-Fa-f]|5[0-9Aa]|6[1-9A-Fa-f]|7[0-9Aa]|3[0-9]|2[DEde]|5[Ff]|7[Ee])/g;

/**
 * The request's URL with its path's escaped unreserved characters decoded (RFC 3986 §6.2.2.2: the
 * same URI either way), the query left as it came. The router decodes them before it matches, so
 * `/%61pi/forgotpassword` reaches /api/forgotpassword's route; every hook that tells paths apart by
 * their text (the API's CSRF check and no-store, the doors of the error answers) must read the path
 * the router matched, not another spelling of it.
 */
export function withUnreservedDecoded(url: string): string {
  const path = pathOf(url);
  if (!path.includes('%')) return url;
  // Until nothing is left to decode: a decoded digit can complete an escape with the "%" before it
  // (`/%%361pi` is `/%61pi` after one pass), which the router would then decode once more. Each pass
  // that changes anything makes the path shorter, so this ends.
  let decoded = path;
  for (let before = ''; decoded !== before; ) {
    before = decoded;
    decoded = decoded.replace(ESCAPED_UNRESERVED, (_escape, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  }
  return `${decoded}${url.slice(path.length)}`;
}
