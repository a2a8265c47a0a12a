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
