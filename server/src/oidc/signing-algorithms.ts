import type { AsymmetricSigningAlgorithm, JWK } from 'oidc-provider';

/**
 * The JWS algorithm one signing key makes: its own `alg` when it names one, else the usual one of
 * its type (RFC 7518 §3.1, RFC 8037 §3.1). A key of another type or curve signs nothing here.
 */
function algorithmOf(key: JWK): AsymmetricSigningAlgorithm | undefined {
  if (typeof key.alg === 'string') return key.alg as AsymmetricSigningAlgorithm;
  if (key.kty === 'RSA') return 'RS256';
  if (key.kty === 'EC' && key.crv === 'P-256') return 'ES256';
  if (key.kty === 'OKP' && key.crv === 'Ed25519') return 'EdDSA';
  return undefined;
}

/**
 * The algorithms the provider's key set can sign ID tokens with, in the set's order: what a client
 * may register as id_token_signed_response_alg, and all the provider offers (so discovery lists
 * nothing a client could not use).
 */
export function signingAlgorithmsOf(jwks: { keys: readonly JWK[] }): AsymmetricSigningAlgorithm[] {
  const algorithms = jwks.keys.map(algorithmOf).filter((alg) => alg !== undefined);
  return [...new Set(algorithms)];
}
