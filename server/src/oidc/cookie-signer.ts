import { createHmac, timingSafeEqual } from 'node:crypto';

/** Keygrip's own: HMAC-SHA1, its base64 made URL-safe without padding (base64url). */
const ALGORITHM = 'sha1';

function signature(data: string, key: string): Buffer {
  return Buffer.from(createHmac(ALGORITHM, key).update(data).digest('base64url'));
}

/** What oidc-provider (through the cookies package) asks of its cookie keys: keygrip's methods. */
export interface CookieSigner {
  sign(data: string): string;
  verify(data: string, digest: string): boolean;
  /** The position of the key that made `digest`, -1 for none; above 0 the cookie is signed anew. */
  index(data: string, digest: string): number;
}

/**
 * The provider's cookie signer (oidc-provider's `cookies.keys`): the signatures keygrip makes, so a
 * cookie signed before an upgrade still verifies, compared with crypto.timingSafeEqual. keygrip
 * compares through tsscmp, which HMACs both sides again under a fresh random Buffer key; on Node 24
 * a Buffer key makes an HMAC about five times dearer than a string key, and that comparison was a
 * twentieth of the main thread per sign-in (BENCHMARKS.md). The first key signs; every key verifies,
 * so COOKIE_SECRETS can be rotated.
 */
export function cookieSigner(keys: readonly string[]): CookieSigner {
  const [signingKey] = keys;
  if (signingKey === undefined) throw new Error('cookie signing needs at least one key');
  const index = (data: string, digest: string): number => {
    const given = Buffer.from(String(digest));
    // Constant time within a length; a signature's length is no secret (every one has the same).
    return keys.findIndex((key) => {
      const expected = signature(data, key);
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  };
  return {
    sign: (data: string) => signature(data, signingKey).toString(),
    verify: (data: string, digest: string) => index(data, digest) > -1,
    index,
  };
}
