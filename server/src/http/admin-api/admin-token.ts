import { ADMIN_SCOPE } from '@keycard/contract';
import type Provider from 'oidc-provider';
import { ServiceError } from '../../errors/service-error.ts';
import { clientScope } from '../../oidc/oidc-repository.ts';
import type { Db } from '../../store/database.ts';

/** What the admin API knows of its caller after the token check: the client, for the audit log. */
export interface AdminCaller {
  readonly clientId: string;
}

/** Thrown with the RFC 6750 §3 challenge the reply must carry. */
class AdminAuthError extends ServiceError {
  override readonly headers: Readonly<Record<string, string>>;

  constructor(code: 'unauthorized' | 'forbidden', message: string, challenge: string) {
    super(code, message);
    this.headers = { 'www-authenticate': challenge };
  }
}

const REALM = 'realm="keycard-admin"';
const BEARER = /^Bearer ([\x21-\x7e]{1,4096})$/i;

function unauthorized(message: string, error?: 'invalid_token'): AdminAuthError {
  const challenge = error === undefined ? `Bearer ${REALM}` : `Bearer ${REALM}, error="${error}"`;
  return new AdminAuthError('unauthorized', message, challenge);
}

function forbidden(message: string): AdminAuthError {
  return new AdminAuthError(
    'forbidden',
    message,
    `Bearer ${REALM}, error="insufficient_scope", scope="${ADMIN_SCOPE}"`,
  );
}

/**
 * Checks an `Authorization: Bearer` header against the provider's own client-credentials tokens.
 * They are opaque and live in the provider's database storage, so looking one up is the whole
 * introspection: an unknown, revoked or expired token (the adapter and the token's `exp` both use
 * a clock) is 401. A token the admin scope was not granted to, or whose client no longer holds the
 * admin scope (changed or deleted since), is 403. Tokens of other grants (a user's access token)
 * are a different model and never found here.
 */
export async function authenticateAdmin(
  provider: Provider,
  db: Db,
  authorization: string | undefined,
): Promise<AdminCaller> {
  if (authorization === undefined || authorization === '') {
    throw unauthorized('An access token is required (Authorization: Bearer).');
  }
  const value = BEARER.exec(authorization)?.[1];
  if (value === undefined)
    throw unauthorized('The Authorization header must be "Bearer <token>".', 'invalid_token');
  const token = await provider.ClientCredentials.find(value);
  if (!token?.clientId)
    throw unauthorized('The access token is unknown, revoked or expired.', 'invalid_token');
  // DPoP and mTLS are not enabled, so no token is sender-constrained; refuse one that claims to be
  // rather than accept it as a plain bearer token.
  if (token.isSenderConstrained())
    throw unauthorized('Sender-constrained tokens are not accepted.', 'invalid_token');
  const granted = (token.scope ?? '').split(' ');
  if (!granted.includes(ADMIN_SCOPE)) throw forbidden(`The access token lacks the scope ${ADMIN_SCOPE}.`);
  const registered = await clientScope(db, token.clientId);
  if (registered === undefined || !registered.split(' ').includes(ADMIN_SCOPE)) {
    throw forbidden('The client of this access token may not use the admin API.');
  }
  return { clientId: token.clientId };
}
