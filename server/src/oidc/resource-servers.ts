import type { Grant, KoaContextWithOIDC, ResourceServer } from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { Config } from '../config.ts';

type RegisteredResource = Config['resourceServers'][number];

/**
 * RFC 8707 resource indicators: a client may ask for an access token for one of RESOURCE_SERVERS.
 * Such a token is an RFC 9068 JWT (typ at+jwt, signed with the provider's key, aud = the resource or
 * its configured audience), limited to the scopes that resource accepts and living its own TTL. An
 * unregistered resource is refused with invalid_target (RFC 8707 §2). Every other access token stays
 * opaque and stored, so it can be introspected and revoked, and the admin API keeps looking its
 * tokens up in the database.
 */
export function resourceServerInfo(servers: readonly RegisteredResource[]) {
  const byIdentifier = new Map(servers.map((server) => [server.identifier, server]));
  return (_ctx: KoaContextWithOIDC, indicator: string): ResourceServer => {
    const server = byIdentifier.get(indicator);
    if (!server) throw new errors.InvalidTarget();
    return {
      scope: server.scopes.join(' '),
      ...(server.audience === undefined ? {} : { audience: server.audience }),
      accessTokenTTL: server.accessTokenTtl,
      // Signed like ID tokens (the provider's default algorithm and current key), published at /jwks.
      accessTokenFormat: 'jwt',
    };
  };
}

/** The `resource` parameter of a request, one or many. */
function requestedResources(ctx: KoaContextWithOIDC): string[] {
  const resource: unknown = ctx.oidc.params?.resource;
  if (typeof resource === 'string') return [resource];
  return Array.isArray(resource) ? resource.filter((value) => typeof value === 'string') : [];
}

/**
 * Adds to a first-party grant (no consent screen, DESIGN §1) the asked-for scopes each registered
 * resource accepts; an unregistered resource was already refused by resourceServerInfo.
 */
export function grantResourceScopes(
  servers: readonly RegisteredResource[],
  ctx: KoaContextWithOIDC,
  grant: Grant,
): void {
  const asked = ctx.oidc.requestParamScopes;
  for (const indicator of requestedResources(ctx)) {
    const server = servers.find((candidate) => candidate.identifier === indicator);
    const scopes = server?.scopes.filter((scope) => asked.has(scope)) ?? [];
    if (scopes.length > 0) grant.addResourceScope(indicator, scopes.join(' '));
  }
}
