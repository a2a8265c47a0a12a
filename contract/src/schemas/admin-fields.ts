import { z } from 'zod';
import { MAX_PRODUCT_NAME_LENGTH } from '../rules/authorization-hints.ts';
import { isPlainText } from '../rules/plain-text.ts';
import { LANGUAGES } from '../text-keys.ts';
import { plainText } from './plain-text.ts';

/**
 * Field schemas of admin inputs, shared by the admin CLI, the admin socket and the admin HTTP API
 * (DESIGN §1 Provisioning). Messages say what a good value looks like and never echo the value (it
 * may be a secret).
 */

/** DESIGN §2: e-mail identifiers are trimmed; one @, a dotted domain, no spaces or control characters. */
export const emailField = plainText({ error: 'is required' })
  .trim()
  .max(320, 'must be at most 320 characters')
  .regex(/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/u, 'must be an e-mail address such as ada@example.com');

export const displayNameField = plainText({ error: 'is required' })
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters');

/** The language of an account's mail: one the texts are written in. */
export const languageField = z.enum(LANGUAGES, { error: `must be one of ${LANGUAGES.join(', ')}` });

/** An account's id as the admin API names it in paths and results. */
export const accountIdField = z.uuid({ error: 'must be an account id (a UUID)' });

export const clientIdField = plainText({ error: 'is required' }).regex(
  /^[A-Za-z0-9._-]{3,64}$/,
  'must be 3 to 64 characters from A–Z, a–z, 0–9, ".", "_" and "-"',
);

export const productNameField = displayNameField.pipe(
  z.string().max(MAX_PRODUCT_NAME_LENGTH, `must be at most ${MAX_PRODUCT_NAME_LENGTH} characters`),
);

/** An absolute http(s) URL without fragment or credentials, stored exactly as given (RPs compare strings). */
export const redirectUriField = plainText({ error: 'is required' })
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine(
    isRedirectUri,
    'must be an absolute http(s) URL without a #fragment, e.g. https://app.example/callback',
  );

function isRedirectUri(value: string): boolean {
  if (/[\s#]/u.test(value) || !isPlainText(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === ''
  );
}

/**
 * A client secret for client_secret_basic: long enough to resist guessing, printable ASCII so it
 * survives Basic authentication headers unchanged.
 */
export const clientSecretField = plainText()
  .min(32, 'must be at least 32 characters')
  .max(512, 'must be at most 512 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

/** The first password of an account; the policy is checked with the e-mail on the server. */
export const passwordField = plainText().max(4096, 'is too long');

/** At most 20 redirect or post-logout URIs per client. */
export const uriListField = z.array(redirectUriField).max(20, 'at most 20 URIs');

// ---- a client's protocol registration (OpenID Connect Dynamic Client Registration §2 names) ----

/** The grants a client may use; authorization_code needs redirect URIs, refresh_token needs offline_access. */
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
export const grantTypesField = z
  .array(z.enum(GRANT_TYPES, { error: `must each be one of ${GRANT_TYPES.join(', ')}` }))
  .min(1, 'at least one grant type is required')
  .refine((list) => new Set(list).size === list.length, 'must not repeat a grant type');

/**
 * The scopes a client may ask for. offline_access brings refresh tokens; the admin API's scope is
 * not among them: only `client:add --admin` registers a client that may ask for it.
 */
export const CLIENT_SCOPES = ['openid', 'email', 'profile', 'offline_access'] as const;
export const scopesField = z
  .array(z.enum(CLIENT_SCOPES, { error: `must each be one of ${CLIENT_SCOPES.join(', ')}` }))
  .min(1, 'at least one scope is required')
  .refine((list) => new Set(list).size === list.length, 'must not repeat a scope');

/**
 * How a client authenticates at the token endpoint: with its secret (Basic header, form field, or
 * an HS256 assertion keyed with it), with an assertion signed by its own key (jwks or jwks_uri), or
 * not at all (a public client, which must use PKCE).
 */
export const TOKEN_ENDPOINT_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'client_secret_jwt',
  'private_key_jwt',
  'none',
] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];
export const tokenEndpointAuthMethodField = z.enum(TOKEN_ENDPOINT_AUTH_METHODS, {
  error: `must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(', ')}`,
});

/** The methods that authenticate with the client secret. */
export const SECRET_AUTH_METHODS: readonly TokenEndpointAuthMethod[] = [
  'client_secret_basic',
  'client_secret_post',
  'client_secret_jwt',
];

/** JWS algorithms an ID token can be signed with; the server accepts those its signing keys can make. */
export const ID_TOKEN_SIGNING_ALGS = ['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519'] as const;
export const idTokenSigningAlgField = z.enum(ID_TOKEN_SIGNING_ALGS, {
  error: `must be one of ${ID_TOKEN_SIGNING_ALGS.join(', ')}`,
});

/** Members of a private or symmetric JWK: a client registers public keys only. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

const publicJwk = z
  .looseObject({
    kty: z.enum(['RSA', 'EC', 'OKP'], { error: 'each key needs kty RSA, EC or OKP' }),
    kid: plainText().max(200, 'kid must be at most 200 characters').optional(),
  })
  .refine(
    (key) => PRIVATE_MEMBERS.every((member) => !(member in key)),
    'must hold public keys only (no "d" or other private members)',
  );

/** The client's public keys for private_key_jwt, e.g. {"keys":[{"kty":"EC","crv":"P-256",…}]}. */
export const jwksField = z.strictObject(
  { keys: z.array(publicJwk).min(1, 'must hold at least one key').max(10, 'at most 10 keys') },
  { error: 'must be a JSON Web Key Set ({"keys":[…]}) of public keys' },
);
export type ClientJwks = z.output<typeof jwksField>;

/** Where the client publishes its public keys: an absolute http(s) URL (https outside localhost). */
export const jwksUriField = plainText({ error: 'is required' })
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine(
    isJwksUri,
    'must be an https URL (http only on localhost) without a #fragment, e.g. https://app.example/jwks.json',
  );

function isJwksUri(value: string): boolean {
  if (!isRedirectUri(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/**
 * The format of a client's access tokens for a registered resource (RFC 8707): `jwt`, an RFC 9068
 * token the API verifies with the provider's published keys; `opaque`, a reference the API looks up
 * at the introspection endpoint (RFC 7662). Access tokens without a resource are always opaque.
 */
export const ACCESS_TOKEN_FORMATS = ['jwt', 'opaque'] as const;
export type AccessTokenFormat = (typeof ACCESS_TOKEN_FORMATS)[number];
export const accessTokenFormatField = z.enum(ACCESS_TOKEN_FORMATS, {
  error: `must be one of ${ACCESS_TOKEN_FORMATS.join(', ')}`,
});

// ---- a resource server (an API that accepts the provider's access tokens) ----

/**
 * A resource server's identifier: the `resource` a client asks for and the `aud` of its tokens. An
 * absolute URI without a fragment (RFC 8707 §2), compared exactly as written.
 */
export const resourceIdentifierField = plainText({ error: 'is required' })
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine(
    (value) => !/[\s#]/u.test(value) && URL.canParse(value),
    'must be an absolute URI without a #fragment, e.g. https://api.planner.example/',
  );

/**
 * Scopes that belong to sign-in (and the admin API), never to a resource server: a token issued for
 * an API must not carry them, or that API could replay it at the admin API or userinfo.
 */
export const RESOURCE_FORBIDDEN_SCOPES = [...CLIENT_SCOPES, 'keycard:admin'] as const;
const SIGN_IN_SCOPES: readonly string[] = RESOURCE_FORBIDDEN_SCOPES;

/** The scopes a resource server accepts: RFC 6749 scope tokens of its own. */
export const resourceScopesField = z
  .array(
    z
      .string({ error: 'must each be a scope' })
      .regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/, 'must each be one RFC 6749 scope token')
      .refine(
        (scope) => !SIGN_IN_SCOPES.includes(scope),
        `must not be one of ${SIGN_IN_SCOPES.join(', ')}: those belong to sign-in`,
      ),
  )
  .min(1, 'at least one scope is required')
  .max(50, 'at most 50 scopes')
  .refine((list) => new Set(list).size === list.length, 'must not repeat a scope');

/** Seconds an access token for a resource server lives: 1 minute to 1 day (a JWT cannot be revoked). */
export const accessTokenTtlField = z
  .number({ error: 'must be a number of seconds' })
  .int('must be a whole number of seconds')
  .min(60, 'must be at least 60 seconds')
  .max(86_400, 'must be at most 86400 seconds (a day)');

/** The clients that may ask for a resource server. */
export const clientIdListField = z
  .array(clientIdField)
  .min(1, 'at least one client id is required (leave the field out for every client)')
  .max(100, 'at most 100 clients')
  .refine((list) => new Set(list).size === list.length, 'must not repeat a client id');
