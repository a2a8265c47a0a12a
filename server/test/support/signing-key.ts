import { generateKeyPairSync } from 'node:crypto';

let made: Record<string, unknown> | undefined;

/**
 * A private RSA signing key for OIDC_JWKS, which must hold one that signs RS256, with `kid`; one key
 * per test process, as an RSA key takes tens of milliseconds to make.
 */
export function testSigningJwk(kid = 'k1'): Record<string, unknown> {
  made ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  return { ...made, kid, alg: 'RS256', use: 'sig' };
}
