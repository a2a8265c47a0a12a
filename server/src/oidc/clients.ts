import type { AdapterPayload } from 'oidc-provider';
import type { Db } from '../store/database.ts';
import { type ClientRow, clientRedirectUris, findClient } from './oidc-repository.ts';

/**
 * Client metadata as oidc-provider expects it. A client without a secret is public: it authenticates
 * with nothing and must use PKCE (which the provider requires of every client anyway).
 */
export function clientMetadata(row: ClientRow): AdapterPayload {
  const grantTypes = new Set(['authorization_code', 'refresh_token', ...row.grantTypes]);
  const interactive = row.redirectUris.length > 0;
  return {
    client_id: row.clientId,
    ...(row.clientSecret ? { client_secret: row.clientSecret } : {}),
    token_endpoint_auth_method: row.clientSecret ? 'client_secret_basic' : 'none',
    redirect_uris: row.redirectUris,
    post_logout_redirect_uris: row.postLogoutRedirectUris,
    grant_types: interactive ? [...grantTypes] : row.grantTypes,
    response_types: interactive ? ['code'] : [],
    scope: row.scope,
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
