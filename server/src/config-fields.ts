import { z } from 'zod';

/** Field parsers of config.ts. Messages say what a good value looks like and never echo the value. */

export function wholeNumber(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));
}

function hasProtocol(value: string, protocols: readonly string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol.slice(0, -1));
  } catch {
    return false;
  }
}

export function urlWithProtocol(protocols: readonly string[], description: string) {
  return z.string().refine((value) => hasProtocol(value, protocols), { error: `must be ${description}` });
}

/** An origin only: links, the issuer and redirects are built from it, so a path would be ambiguous. */
export function isHttpOrigin(value: string): boolean {
  if (!hasProtocol(value, ['http', 'https']) || /[?#]/.test(value)) return false;
  const url = new URL(value);
  return url.pathname === '/' && url.username === '' && url.password === '';
}

/**
 * COOKIE_SECRETS: comma-separated; the first signs new cookies, all verify (so a secret can be rotated
 * without logging everybody's CSRF cookie out). 32 characters is the minimum @fastify/cookie's signer
 * needs for its HMAC key to carry enough entropy.
 */
export const cookieSecretsSchema = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((secret) => secret.trim())
      .filter((secret) => secret !== ''),
  )
  .pipe(
    z
      .array(z.string().min(32, 'each comma-separated secret must be at least 32 characters'))
      .min(1, 'must list at least one secret'),
  );

/** One private signing key of OIDC_JWKS; the OIDC issue consumes the remaining JWK members. */
const privateJwk = z.looseObject({
  kty: z.enum(['RSA', 'EC', 'OKP'], { error: 'each key needs kty RSA, EC or OKP' }),
  d: z.string({ error: 'each key must be a private key (with "d")' }).min(1),
  kid: z.string().optional(),
});

/** OIDC_JWKS: a JSON Web Key Set of private signing keys, e.g. {"keys":[{"kty":"EC",…,"d":"…"}]}. */
export const jwksSchema = z
  .string()
  .transform((value, ctx) => {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON Web Key Set ({"keys":[…]})' });
      return z.NEVER;
    }
  })
  .pipe(
    z.object(
      {
        keys: z.array(privateJwk, { error: 'must have a "keys" array' }).min(1, 'must hold at least one key'),
      },
      { error: 'must be a JSON Web Key Set ({"keys":[…]})' },
    ),
  );

/** A scope token of RFC 6749 §3.3: printable ASCII without space, quote or backslash. */
const scopeToken = z
  .string()
  .regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/, 'each scope must be one RFC 6749 scope token');

/**
 * One resource server of RESOURCE_SERVERS (RFC 8707): its identifier is the `resource` a client asks
 * for (an absolute https URL, or http in development, without a fragment), which also becomes the
 * JWT access token's `aud` unless `audience` names another.
 */
const resourceServer = z.strictObject({
  identifier: z
    .string()
    .refine(
      (value) => hasProtocol(value, ['http', 'https']) && !value.includes('#'),
      'each identifier must be an absolute http(s) URL without a fragment (RFC 8707 §2)',
    ),
  scopes: z.array(scopeToken).min(1, 'each resource server must accept at least one scope'),
  /** Seconds an access token for it lives (RFC 9068 tokens cannot be revoked: keep it short). */
  accessTokenTtl: z.number().int().min(60).max(86_400).default(600),
  audience: z.string().min(1).optional(),
});

/**
 * RESOURCE_SERVERS: a JSON array of the APIs that accept this provider's JWT access tokens, e.g.
 * [{"identifier":"https://api.planner.example/","scopes":["planning:read"],"accessTokenTtl":600}].
 */
export const resourceServersSchema = z
  .string()
  .transform((value, ctx) => {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of resource servers' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(resourceServer, { error: 'must be a JSON array of resource servers' })
      .refine(
        (servers) => new Set(servers.map((server) => server.identifier)).size === servers.length,
        'each identifier may appear only once',
      ),
  );
