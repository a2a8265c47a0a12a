import { createPublicKey, constants as cryptoConstants, verify, webcrypto } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';

/** Keys and signatures as a client sees them: its own signing keys, and checks of the provider's. */

type Jwk = webcrypto.JsonWebKey & { kid?: string };

/** Web Crypto's name for the key of each JWS algorithm (RFC 7518 §3, RFC 8037, RFC 9864). */
const KEY_ALGORITHMS: Record<
  string,
  webcrypto.RsaHashedKeyGenParams | webcrypto.EcKeyGenParams | { name: string }
> = {
  RS256: {
    name: 'RSASSA-PKCS1-v1_5',
    modulusLength: 2048,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: 'SHA-256',
  },
  PS256: { name: 'RSA-PSS', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
  ES256: { name: 'ECDSA', namedCurve: 'P-256' },
  EdDSA: { name: 'Ed25519' },
  Ed25519: { name: 'Ed25519' },
};

let serial = 0;

/** A client's key pair for `alg`: the private CryptoKey it signs with, the public JWK it registers. */
export async function clientKeyPair(
  alg: string,
): Promise<{ privateKey: webcrypto.CryptoKey; publicJwk: Jwk }> {
  const algorithm = KEY_ALGORITHMS[alg];
  if (!algorithm) throw new Error(`no key type for ${alg}`);
  const pair = (await webcrypto.subtle.generateKey(algorithm, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  serial += 1;
  const exported = await webcrypto.subtle.exportKey('jwk', pair.publicKey);
  const { key_ops: _ops, ext: _ext, alg: _alg, ...publicJwk } = exported;
  return { privateKey: pair.privateKey, publicJwk: { ...publicJwk, kid: `client-key-${serial}` } };
}

/** Whether `jwt` is signed by a key of `jwks` with the algorithm its header names; the header's alg. */
export function verifiedAlgorithm(jwt: string, jwks: { keys: Jwk[] }): string {
  const [header = '', payload = '', signature = ''] = jwt.split('.');
  const { alg, kid } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as {
    alg: string;
    kid?: string;
  };
  const jwk = jwks.keys.find((key) => key.kid === kid);
  if (!jwk) throw new Error(`no key ${kid} in the provider's jwks`);
  const key = createPublicKey({ key: jwk as Record<string, unknown>, format: 'jwk' });
  const data = Buffer.from(`${header}.${payload}`);
  const sig = Buffer.from(signature, 'base64url');
  const ok =
    alg === 'RS256'
      ? verify('sha256', data, key, sig)
      : alg === 'PS256'
        ? verify('sha256', data, { key, padding: cryptoConstants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, sig)
        : alg === 'ES256'
          ? verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, sig)
          : verify(null, data, key, sig);
  if (!ok) throw new Error(`the ${alg} signature does not verify`);
  return alg;
}

/** The request a browser sends when it submits a response_mode=form_post page. */
export function formPostRequest(page: LightMyRequestResponse): Request {
  const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
  if (!action) throw new Error(`no form in ${page.statusCode} ${page.body.slice(0, 200)}`);
  const fields = [...page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)];
  const body = new URLSearchParams(
    fields.map(([, name = '', value = '']): [string, string] => [name, unescapeHtml(value)]),
  );
  return new Request(unescapeHtml(action), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
}

function unescapeHtml(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}
