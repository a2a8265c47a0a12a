import {
  type AccessTokenFormat,
  type ClientJwks,
  SECRET_AUTH_METHODS,
  type TokenEndpointAuthMethod,
} from '@keycard/contract';
import { isLoopbackHost } from '../config-fields.ts';
import { InputError } from '../errors/input-error.ts';

/**
 * A client's whole registration as it will be stored: what a new client asks for with its defaults
 * filled in, or a stored client with a change applied. The rules below decide whether it is a client
 * that can work; each names the field to fix.
 */
export interface Registration {
  readonly admin: boolean;
  readonly redirectUris: readonly string[];
  readonly postLogoutUris: readonly string[];
  readonly secret: string | null;
  readonly grantTypes: readonly string[];
  readonly scopes: readonly string[];
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  readonly jwks: ClientJwks | null;
  readonly jwksUri: string | null;
  readonly requirePkce: boolean;
  readonly idTokenSignedResponseAlg: string | null;
  readonly backchannelLogoutUri: string | null;
  readonly backchannelLogoutSessionRequired: boolean;
  readonly accessTokenFormat: AccessTokenFormat;
}

interface Problem {
  readonly field: keyof Registration;
  readonly message: string;
}

type Rule = (registration: Registration) => Problem | undefined;

const problem = (field: keyof Registration, message: string): Problem => ({ field, message });

const usesSecret = (r: Registration) => SECRET_AUTH_METHODS.includes(r.tokenEndpointAuthMethod);
const hasGrant = (r: Registration, grant: string) => r.grantTypes.includes(grant);

/** Token-endpoint authentication: each method has exactly the credential it uses, and no other. */
const CREDENTIAL_RULES: Rule[] = [
  (r) =>
    usesSecret(r) && r.secret === null
      ? problem('secret', `${r.tokenEndpointAuthMethod} needs a secret`)
      : undefined,
  (r) =>
    !usesSecret(r) && r.secret !== null
      ? problem('secret', `a ${r.tokenEndpointAuthMethod} client has no secret`)
      : undefined,
  (r) =>
    r.tokenEndpointAuthMethod === 'private_key_jwt' && r.jwks === null && r.jwksUri === null
      ? problem('jwks', 'private_key_jwt needs the public keys: give jwks or jwksUri')
      : undefined,
  (r) =>
    r.jwks !== null && r.jwksUri !== null ? problem('jwksUri', 'give jwks or jwksUri, not both') : undefined,
  (r) =>
    r.tokenEndpointAuthMethod !== 'private_key_jwt' && (r.jwks !== null || r.jwksUri !== null)
      ? problem(r.jwks !== null ? 'jwks' : 'jwksUri', 'public keys are for private_key_jwt only')
      : undefined,
];

/** Grants: each needs what it works with (OIDC Core §3.1, RFC 6749 §4.4 and §6). */
const GRANT_RULES: Rule[] = [
  (r) =>
    hasGrant(r, 'authorization_code') && r.redirectUris.length === 0
      ? problem('redirectUris', 'at least one redirect URI is required')
      : undefined,
  (r) =>
    !hasGrant(r, 'authorization_code') && r.redirectUris.length > 0
      ? problem(
          'redirectUris',
          'a client without the authorization_code grant signs nobody in: give no redirect URI',
        )
      : undefined,
  (r) =>
    !hasGrant(r, 'authorization_code') && r.postLogoutUris.length > 0
      ? problem(
          'postLogoutUris',
          'a client without the authorization_code grant signs nobody in: give no post-logout URI',
        )
      : undefined,
  (r) =>
    hasGrant(r, 'authorization_code') && !r.scopes.includes('openid')
      ? problem('scopes', 'the authorization_code grant needs openid among the scopes')
      : undefined,
  (r) =>
    hasGrant(r, 'refresh_token') && !hasGrant(r, 'authorization_code')
      ? problem('grantTypes', 'refresh_token needs authorization_code: refresh tokens come from a sign-in')
      : undefined,
  (r) =>
    hasGrant(r, 'refresh_token') && !r.scopes.includes('offline_access')
      ? problem('scopes', 'the refresh_token grant needs offline_access among the scopes')
      : undefined,
  (r) =>
    r.scopes.includes('offline_access') && !hasGrant(r, 'refresh_token')
      ? problem('grantTypes', 'offline_access needs the refresh_token grant')
      : undefined,
  (r) =>
    hasGrant(r, 'client_credentials') && r.tokenEndpointAuthMethod === 'none'
      ? problem('grantTypes', 'client_credentials needs a confidential client (a secret or private_key_jwt)')
      : undefined,
  (r) =>
    !hasGrant(r, 'authorization_code') && r.backchannelLogoutUri !== null
      ? problem(
          'backchannelLogoutUri',
          'a client without the authorization_code grant signs nobody in: give no back-channel logout URI',
        )
      : undefined,
  (r) =>
    !hasGrant(r, 'authorization_code') && r.idTokenSignedResponseAlg !== null
      ? problem('idTokenSignedResponseAlg', 'ID tokens come only with the authorization_code grant')
      : undefined,
];

/**
 * A plain-http URI whose host is not this machine's (loopback, as RFC 8252 §7.3 allows redirects).
 * The scheme as the URL parser reads it: `HTTP://` is stored as given and works as http.
 */
function inClearOverNetwork(uri: string | null): boolean {
  if (uri === null) return false;
  const url = new URL(uri);
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
}

/**
 * Back-Channel Logout 1.0 §2.2: the URI may use http only for a confidential client. A public client's
 * logout tokens would otherwise cross the network in clear to whoever claims to be it; on loopback
 * they never leave the machine (an application in development).
 */
const BACKCHANNEL_RULES: Rule[] = [
  (r) =>
    r.tokenEndpointAuthMethod === 'none' && inClearOverNetwork(r.backchannelLogoutUri)
      ? problem('backchannelLogoutUri', 'a public client takes logout tokens over https only, or on loopback')
      : undefined,
];

/**
 * RFC 6749 §3.1.2.1: the redirection endpoint should use TLS, since the code (and the state that binds
 * it to the browser) crosses the network in its URL; whoever reads it on the way can try it first.
 * On loopback it never leaves the machine (RFC 8252 §7.3: an application in development, a native one).
 */
const REDIRECT_RULES: Rule[] = [
  (r) =>
    r.redirectUris.some(inClearOverNetwork)
      ? problem('redirectUris', 'a redirect URI uses https, or http on loopback only')
      : undefined,
];

/** PKCE: a public client proves the code is its own with nothing else (RFC 9700 §2.1.1). */
const PKCE_RULES: Rule[] = [
  (r) =>
    r.tokenEndpointAuthMethod === 'none' && !r.requirePkce
      ? problem('requirePkce', 'a public client always uses PKCE')
      : undefined,
];

/** An admin client calls the admin API and nothing else (README, Admin API). */
const ADMIN_RULES: Rule[] = [
  (r) =>
    r.admin && r.tokenEndpointAuthMethod === 'none'
      ? problem('secret', 'an admin client must be confidential: give a secret')
      : undefined,
  (r) =>
    r.admin && (r.grantTypes.length !== 1 || !hasGrant(r, 'client_credentials'))
      ? problem('grantTypes', 'an admin client uses client_credentials only')
      : undefined,
  (r) =>
    r.admin && r.accessTokenFormat !== 'opaque'
      ? problem('accessTokenFormat', "an admin client's tokens are opaque: the admin API looks them up")
      : undefined,
  (r) =>
    r.admin && r.backchannelLogoutUri !== null
      ? problem('backchannelLogoutUri', 'an admin client signs nobody in: give no back-channel logout URI')
      : undefined,
];

const RULES = [
  ...ADMIN_RULES,
  ...CREDENTIAL_RULES,
  ...GRANT_RULES,
  ...REDIRECT_RULES,
  ...BACKCHANNEL_RULES,
  ...PKCE_RULES,
];

/**
 * Refuses a registration that could not work, naming the first field at fault. `signingAlgorithms`
 * are those the provider's keys can make (oidc/keys.ts), given when the registration's ID-token
 * algorithm is given now; one outside them would leave the client without ID tokens it can verify.
 */
export function checkRegistration(
  registration: Registration,
  signingAlgorithms: readonly string[] | undefined,
): void {
  for (const rule of RULES) {
    const found = rule(registration);
    if (found) throw new InputError(found.message, found.field);
  }
  const alg = registration.idTokenSignedResponseAlg;
  if (alg !== null && signingAlgorithms !== undefined && !signingAlgorithms.includes(alg)) {
    throw new InputError(
      `must be an algorithm the provider's signing keys make: ${signingAlgorithms.join(', ')}`,
      'idTokenSignedResponseAlg',
    );
  }
}
