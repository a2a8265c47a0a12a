import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import { keyAlgorithms, type PrivateSigningJwk } from '../config-fields.ts';
import type { Db } from '../store/database.ts';
import { getOrCreateSecret, randomSecret } from '../store/secrets.ts';

/** A private signing key: RSA, EC P-256 or OKP Ed25519, with its kid (config-fields.ts checks OIDC_JWKS). */
export type SigningJwk = PrivateSigningJwk;

/** What the signing keys need from the configuration: the base set and the rotation's periods. */
export interface SigningKeySettings {
  /** OIDC_JWKS; unset, the development keys generated at first start are the base set. */
  readonly configured: readonly SigningJwk[] | undefined;
  /** How long a rotated-in key is published before it signs. */
  readonly graceMs: number;
  /** How long a replaced key stays published after it stopped signing. */
  readonly retainMs: number;
}

export function signingKeySettings(config: Config): SigningKeySettings {
  return { configured: config.oidcJwks?.keys, graceMs: config.keyGraceMs, retainMs: config.keyRetainMs };
}

/** Preference when a client registers none: RS256 is what a relying party expects by default. */
const PREFERENCE = ['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519'] as const;

/** A JWS algorithm Keycard's keys sign with. */
export type JwsAlgorithm = (typeof PREFERENCE)[number];

/**
 * The algorithms `keys` can sign ID tokens (and userinfo answers) with, the default first: RS256
 * when an RSA key exists, else ES256, else EdDSA. A client's id_token_signed_response_alg must be
 * one of these; with none registered it gets the first.
 */
export function signingAlgorithmsOf(keys: readonly SigningJwk[]): JwsAlgorithm[] {
  const algorithms = new Set<string>(keys.flatMap(keyAlgorithms));
  return PREFERENCE.filter((alg) => algorithms.has(alg));
}

/** A fresh private signing key of `kty` (and `alg`, if named), like the key it replaces, with a new kid. */
export function newSigningKey(kty: SigningJwk['kty'], alg?: string): SigningJwk {
  const pair =
    kty === 'RSA'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : kty === 'EC'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('ed25519');
  const jwk = pair.privateKey.export({ format: 'jwk' });
  return { ...jwk, kty, kid: randomUUID(), d: String(jwk.d), use: 'sig', ...(alg ? { alg } : {}) };
}

/** Development keys: an RSA and an EC P-256 key, so clients of either algorithm sign in. */
function developmentKeySet(): string {
  return JSON.stringify({ keys: [newSigningKey('RSA'), newSigningKey('EC')] });
}

/**
 * The base key set, which signs until the first rotation: OIDC_JWKS in production; in development
 * keys generated at first start and kept in the database, so restarts and other instances sign alike.
 */
export async function baseSigningKeys(settings: SigningKeySettings, db: Db): Promise<readonly SigningJwk[]> {
  if (settings.configured) return settings.configured;
  const stored = JSON.parse(await getOrCreateSecret(db, 'oidc.jwks', developmentKeySet)) as {
    keys: SigningJwk[];
  };
  return stored.keys;
}

/**
 * Keys for oidc-provider's signed cookies, the first signs: COOKIE_SECRETS in production, in
 * development a secret generated at first start and kept in the database.
 */
export async function providerCookieKeys(config: Config, db: Db): Promise<string[]> {
  return config.cookieSecrets
    ? [...config.cookieSecrets]
    : [await getOrCreateSecret(db, 'oidc.cookie-key', randomSecret)];
}
