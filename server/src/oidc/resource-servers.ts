import type {
  AsymmetricSigningAlgorithm,
  Client,
  Grant,
  KoaContextWithOIDC,
  ResourceServer,
} from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { Config } from '../config.ts';
import type { Db } from '../store/database.ts';
import { findResourceServer, type ResourceServerRow } from './oidc-repository.ts';

/** An API of RESOURCE_SERVERS (config-fields.ts). */
export type ConfiguredResource = Config['resourceServers'][number];

/**
 * One resource server as the provider serves it, registered (admin CLI/API, the database) or
 * configured (RESOURCE_SERVERS). Only a registered one can name clients or an introspection client.
 */
export interface ResourceEntry {
  readonly identifier: string;
  readonly origin: 'registered' | 'environment';
  readonly scopes: readonly string[];
  readonly accessTokenTtl: number;
  /** null: the provider's default algorithm. */
  readonly signingAlg: string | null;
  /** The token's `aud` when it is not the identifier (RESOURCE_SERVERS only). */
  readonly audience?: string;
  /** null: every client may ask for it. */
  readonly clientIds: readonly string[] | null;
  readonly introspectionClientId: string | null;
}

export function registeredEntry(row: ResourceServerRow): ResourceEntry {
  return {
    identifier: row.identifier,
    origin: 'registered',
    scopes: row.scopes,
    accessTokenTtl: row.accessTokenTtl,
    signingAlg: row.signingAlg,
    clientIds: row.clientIds,
    introspectionClientId: row.introspectionClientId,
  };
}

export function configuredEntry(server: ConfiguredResource): ResourceEntry {
  return {
    identifier: server.identifier,
    origin: 'environment',
    scopes: server.scopes,
    accessTokenTtl: server.accessTokenTtl,
    signingAlg: null,
    ...(server.audience === undefined ? {} : { audience: server.audience }),
    clientIds: null,
    introspectionClientId: null,
  };
}

/**
 * The resource server of an identifier: the registered one, else the configured one. A registration
 * takes the place of a RESOURCE_SERVERS entry of the same identifier, so an API moves from the
 * environment to the database without a moment in which it is unknown. Read from the database on
 * every request, so a registration or change applies at once, on every instance, without a restart.
 */
export async function findResourceEntry(
  db: Db,
  configured: readonly ConfiguredResource[],
  identifier: string,
): Promise<ResourceEntry | undefined> {
  const row = await findResourceServer(db, identifier);
  if (row) return registeredEntry(row);
  const server = configured.find((candidate) => candidate.identifier === identifier);
  return server ? configuredEntry(server) : undefined;
}

export interface ResourceDeps {
  readonly db: Db;
  readonly configured: readonly ConfiguredResource[];
  /** The algorithms the keys signing now make, the default first (provider.ts). */
  readonly algorithms: readonly string[];
}

/** The client's registered format (clients.ts); jwt unless it chose opaque. */
function formatOf(client: Client): 'jwt' | 'opaque' {
  return client.metadata().access_token_format === 'opaque' ? 'opaque' : 'jwt';
}

/**
 * RFC 8707 resource indicators: a client may ask for an access token for a registered or configured
 * resource server, limited to the scopes it accepts and living its own TTL. The client's registration
 * picks the format: an RFC 9068 JWT (typ at+jwt, signed with the resource's algorithm or the
 * provider's default, aud = the resource) or an opaque token the API introspects (RFC 7662). An
 * unknown resource, or one that does not list the asking client, is refused with invalid_target
 * (RFC 8707 §2). Tokens without a resource stay opaque (they only reach userinfo).
 */
export function resourceServerInfo({ db, configured, algorithms }: ResourceDeps) {
  return async (_ctx: KoaContextWithOIDC, indicator: string, client: Client): Promise<ResourceServer> => {
    const server = await findResourceEntry(db, configured, indicator);
    if (!server) throw new errors.InvalidTarget();
    if (server.clientIds !== null && !server.clientIds.includes(client.clientId)) {
      throw new errors.InvalidTarget('this client may not ask for tokens for the requested resource');
    }
    // An algorithm the keys no longer make (the key set changed since registration) falls back to the
    // default: the API verifies either against the published keys.
    const alg =
      server.signingAlg !== null && algorithms.includes(server.signingAlg) ? server.signingAlg : null;
    return {
      scope: server.scopes.join(' '),
      ...(server.audience === undefined ? {} : { audience: server.audience }),
      accessTokenTTL: server.accessTokenTtl,
      accessTokenFormat: formatOf(client),
      ...(alg === null ? {} : { jwt: { sign: { alg: alg as AsymmetricSigningAlgorithm } } }),
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
 * Adds to a first-party grant (no consent screen, DESIGN §1) the asked-for scopes each resource
 * accepts; an unknown or forbidden resource was already refused by resourceServerInfo.
 */
export async function grantResourceScopes(
  { db, configured }: Pick<ResourceDeps, 'db' | 'configured'>,
  ctx: KoaContextWithOIDC,
  grant: Grant,
): Promise<void> {
  const asked = ctx.oidc.requestParamScopes;
  for (const indicator of requestedResources(ctx)) {
    const server = await findResourceEntry(db, configured, indicator);
    const scopes = server?.scopes.filter((scope) => asked.has(scope)) ?? [];
    if (scopes.length > 0) grant.addResourceScope(indicator, scopes.join(' '));
  }
}

/** The audiences a stored access token was issued for. */
function audiencesOf(token: { aud?: unknown }): string[] {
  const { aud } = token;
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((value) => typeof value === 'string') : [];
}

/**
 * RFC 7662 §4: a confidential client learns about its own tokens, and a registered resource server (authenticating
 * as its introspection client) about the access tokens issued for it. Any other token answers
 * `active: false`, as an unknown one does, so nobody can probe for tokens of other clients. JWT
 * access tokens are not stored: the API verifies them itself, and oidc-provider refuses to introspect
 * them (unsupported_token_type).
 */
export function introspectionPolicy(db: Db) {
  return async (
    _ctx: KoaContextWithOIDC,
    client: { clientId: string; clientAuthMethod?: string | undefined },
    token: { clientId?: string | undefined; kind: string; aud?: unknown },
  ): Promise<boolean> => {
    // A public client proves nothing but its id, which anyone may send (RFC 7662 §2.1 asks for
    // authorization): its tokens are answered inactive, as a stranger's are.
    if (client.clientAuthMethod === 'none') return false;
    if (token.clientId === client.clientId) return true;
    if (token.kind !== 'AccessToken' && token.kind !== 'ClientCredentials') return false;
    for (const audience of audiencesOf(token)) {
      const server = await findResourceServer(db, audience);
      if (server?.introspectionClientId === client.clientId) return true;
    }
    return false;
  };
}
