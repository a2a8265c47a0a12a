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
 * a confidential client's credential never belongs in a browser, and a sandboxed page (origin "null")
 * is no origin at all. Userinfo is answered for any client on those terms, as it takes the access
 * token alone. Discovery and the JWKS are public and open to every origin (the provider's own rule).
 */
export function allowsBrowserOrigin(ctx: KoaContextWithOIDC, origin: string, client: CallingClient): boolean {
  if (origin === 'null') return false;
  if (client.clientAuthMethod !== 'none' && ctx.oidc.route !== 'userinfo') return false;
  return (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin);
}
