import type { AdapterPayload, ClientAuthMethod, SigningAlgorithmWithNone } from 'oidc-provider';
import type { Db } from '../store/database.ts';
import { type ClientRow, clientRedirectUris, findClient } from './oidc-repository.ts';

/**
 * Client metadata as oidc-provider expects it (OpenID Connect Dynamic Client Registration §2), from
 * the registration provisioning checked (provisioning/client-rules.ts). `require_pkce` and
 * `access_token_format` are Keycard's own: a confidential client that opted into PKCE (a public one
 * always needs it, provider.ts), and how its tokens for a registered resource look (resource-servers.ts).
 */
export function clientMetadata(row: ClientRow): AdapterPayload {
  const interactive = row.grantTypes.includes('authorization_code');
  return {
    client_id: row.clientId,
    ...(row.clientSecret ? { client_secret: row.clientSecret } : {}),
    token_endpoint_auth_method: row.tokenEndpointAuthMethod as ClientAuthMethod,
    ...(row.jwks ? { jwks: row.jwks } : {}),
    ...(row.jwksUri ? { jwks_uri: row.jwksUri } : {}),
    redirect_uris: row.redirectUris,
    post_logout_redirect_uris: row.postLogoutRedirectUris,
    grant_types: row.grantTypes,
    response_types: interactive ? ['code'] : [],
    scope: row.scope,
    ...(row.idTokenSignedResponseAlg
      ? { id_token_signed_response_alg: row.idTokenSignedResponseAlg as SigningAlgorithmWithNone }
      : {}),
    require_pkce: row.requirePkce,
    access_token_format: row.accessTokenFormat,
    product_name: row.productName,
    ...(row.backchannelLogoutUri === null
      ? {}
      : {
          backchannel_logout_uri: row.backchannelLogoutUri,
          backchannel_logout_session_required: row.backchannelLogoutSessionRequired,
        }),
  };
}

export async function findClientMetadata(db: Db, clientId: string): Promise<AdapterPayload | undefined> {
  const row = await findClient(db, clientId);
  return row ? clientMetadata(row) : undefined;
}

/** Origins of every registered redirect and post-logout URI: the RedirectUrl allow-list (DESIGN §2). */
export async function registeredOrigins(db: Db): Promise<Set<string>> {
  const rows = await clientRedirectUris(db);
  const origins = new Set<string>();
  for (const row of rows) {
    for (const uri of [...row.redirectUris, ...row.postLogout]) {
      try {
        origins.add(new URL(uri).origin);
      } catch {
        // A malformed stored URI allows nothing.
      }
    }
  }
  return origins;
}
