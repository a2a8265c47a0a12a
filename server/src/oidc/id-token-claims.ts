import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * Claims of an ID token issued at the token endpoint that oidc-provider leaves out for most clients.
 * They are declared under the openid scope (provider.ts) and answered from findAccount's claims().
 */

/**
 * `sid` (OpenID Connect Front-/Back-Channel Logout, RP-Initiated Logout): the session's id for this
 * client, so a relying party can match a logout token or end-session request to its own session. The
 * provider adds it by itself only for back-channel clients that require it; here every client gets it,
 * read from the session the code or refresh token came from.
 */
async function sessionIdFor(ctx: KoaContextWithOIDC): Promise<string | undefined> {
  const { client, entities } = ctx.oidc;
  const source = entities.AuthorizationCode ?? entities.RefreshToken;
  if (!client || !source) return undefined;
  if (typeof source.sid === 'string') return source.sid;
  if (!source.sessionUid) return undefined;
  const session = await ctx.oidc.provider.Session.findByUid(source.sessionUid);
  return session?.sidFor(client.clientId);
}

/**
 * `at_hash` (OpenID Connect Core §3.1.3.6, OPTIONAL in the code flow): binds the ID token to the opaque
 * access token issued with it; the provider hashes the value as its signing algorithm says. A JWT access
 * token for a resource (RFC 9068) is not at hand here, so that ID token goes without, as the spec allows.
 * The front-channel responses where §3.2.2.10 and §3.3.2.11 require at_hash and c_hash (implicit and
 * hybrid) are not offered: the only response type is `code`.
 */
function accessTokenValueFor(ctx: KoaContextWithOIDC): string | undefined {
  const token = ctx.oidc.entities.AccessToken;
  if (!token?.jti || token.resourceServer?.accessTokenFormat === 'jwt') return undefined;
  return token.jti;
}

/** The extra claims of an ID token being issued in `ctx` (empty outside the token endpoint). */
export async function tokenEndpointIdTokenClaims(ctx: KoaContextWithOIDC): Promise<Record<string, string>> {
  const sid = await sessionIdFor(ctx);
  const accessToken = accessTokenValueFor(ctx);
  return {
    ...(sid === undefined ? {} : { sid }),
    ...(accessToken === undefined ? {} : { at_hash: accessToken }),
  };
}
