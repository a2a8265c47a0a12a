import type { KoaContextWithOIDC } from 'oidc-provider';

/** What the provider knows of the client a browser's cross-origin call names. */
interface CallingClient {
  readonly clientAuthMethod?: string | undefined;
  readonly redirectUris?: readonly string[] | undefined;
}

/**
 * Which cross-origin browser calls the provider answers with CORS (oidc-provider's clientBasedCORS):
 * a single-page application signs in as a public client (PKCE, no secret) and must redeem its code,
 * refresh and revoke its tokens and read userinfo from its own origin. That origin is one the client
 * registered a redirect URI on, and nothing else: another site's script gets no answer it may read,
 * and a confidential client's credential never belongs in a browser. A sandboxed page's origin,
 * "null", matches none: registered redirect URIs are http(s), whose origin is never "null". Discovery
 * and the JWKS are public and open to every origin (the provider's own rule).
 */
export function allowsBrowserOrigin(
  _ctx: KoaContextWithOIDC,
  origin: string,
  client: CallingClient,
): boolean {
  if (client.clientAuthMethod !== 'none') return false;
  // Stryker disable next-line ArrayDeclaration,OptionalChaining: a client of the code flow has redirect URIs, and registration accepts only ones that parse
  return (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin);
}
