import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import type { Config } from '../config.ts';
import type { Db } from '../store/database.ts';
import { getOrCreateSecret, randomSecret } from '../store/secrets.ts';

export interface ProviderKeys {
  /** Private signing keys; the first signs, the rest still verify (rotation). */
  jwks: { keys: JWK[] };
  /** Keys for oidc-provider's signed cookies; the first signs. */
  cookieKeys: string[];
}

function newSigningKey(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return JSON.stringify({ keys: [{ ...jwk, kid: randomUUID(), alg: 'RS256', use: 'sig' }] });
}

/**
 * Production takes keys from configuration (OIDC_JWKS, COOKIE_SECRETS); development generates them at
 * first start and keeps them in the database, so restarts and other instances sign alike.
 */
export async function loadProviderKeys(config: Config, db: Db): Promise<ProviderKeys> {
  const jwks = config.oidcJwks
    ? (config.oidcJwks as { keys: JWK[] })
    : (JSON.parse(await getOrCreateSecret(db, 'oidc.jwks', newSigningKey)) as { keys: JWK[] });
  const cookieKeys = config.cookieSecrets
    ? [...config.cookieSecrets]
    : [await getOrCreateSecret(db, 'oidc.cookie-key', randomSecret)];
  return { jwks, cookieKeys };
}
