import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { signingKeySettings } from '../src/oidc/keys.ts';
import { addClient } from '../src/provisioning/client-operations.ts';
import { listKeys, revokeKeys, rotateKeys } from '../src/provisioning/key-operations.ts';
import { manualClock } from '../src/store/clock.ts';
import type { Db } from '../src/store/database.ts';
import { adminEvents } from './admin-api-kit.ts';
import { createAccount, registerTestClient, TestBrowser } from './support/oidc-flow.ts';
import {
  discoverRelyingParty,
  headerOf,
  RP_HEADERS,
  RP_PUBLIC_URL,
  signInThrough,
} from './support/relying-party.ts';
import { useTestService } from './support/test-service.ts';

const PASSWORD = 'Signing-Keys-42';
const MINUTE = 60_000;
const SECOND = 1000;

function privateJwk(kind: 'rsa' | 'ec' | 'ed25519', kid: string): Record<string, unknown> {
  const pair =
    kind === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : kind === 'ec'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('ed25519');
  return { ...pair.privateKey.export({ format: 'jwk' }), kid };
}

const jwksOf = (...keys: Record<string, unknown>[]) => JSON.stringify({ keys });

/** NODE_ENV=production as DESIGN §2 Modes requires it; the database and SMTP are the test's own. */
function productionEnv(oidcJwks: string): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'production',
    PUBLIC_URL: RP_PUBLIC_URL,
    TRUST_PROXY: 'true',
    DATABASE_URL: 'postgres://keycard@127.0.0.1:5432/unused',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    COOKIE_SECRETS: 'p'.repeat(32),
    OIDC_JWKS: oidcJwks,
  };
}

interface PublishedKey {
  kid: string;
  kty: string;
  d?: string;
}

async function published(app: FastifyInstance): Promise<PublishedKey[]> {
  const response = await app.inject({ method: 'GET', url: '/oidc/jwks', headers: RP_HEADERS });
  return response.json<{ keys: PublishedKey[] }>().keys;
}

/** Verifies a JWT's signature with the key of its kid in `keys`, as any relying party would. */
function verifiedBy(jwt: string, keys: readonly PublishedKey[]): boolean {
  const [header = '', payload = '', signature = ''] = jwt.split('.');
  const { kid, alg } = headerOf(jwt);
  const jwk = keys.find((key) => key.kid === kid);
  if (!jwk) return false;
  const key = createPublicKey({ key: { ...jwk }, format: 'jwk' });
  const data = Buffer.from(`${header}.${payload}`);
  const raw = Buffer.from(signature, 'base64url');
  if (alg === 'EdDSA' || alg === 'Ed25519') return verify(null, data, key, raw);
  return alg.startsWith('ES')
    ? verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, raw)
    : verify('sha256', data, key, raw);
}

describe.each([
  {
    keySet: 'RSA only',
    keys: () => [privateJwk('rsa', 'rsa-1')],
    alg: 'RS256',
    kid: 'rsa-1',
    supported: ['RS256', 'PS256'],
  },
  {
    keySet: 'RSA, EC and Ed25519',
    keys: () => [privateJwk('ed25519', 'ed-1'), privateJwk('ec', 'ec-1'), privateJwk('rsa', 'rsa-1')],
    alg: 'RS256',
    kid: 'rsa-1',
    supported: ['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519'],
  },
])('a production start with an OIDC_JWKS of $keySet', ({ keys, alg, kid, supported }) => {
  const service = useTestService({
    env: productionEnv(jwksOf(...keys())),
    setUp: async ({ db }) => {
      await registerTestClient(db);
      await createAccount(db, 'ada@example.com', PASSWORD);
    },
  });

  it(`completes a sign-in from openid-client, the ID token signed ${alg} by a published key`, async () => {
    const { app } = service();
    const rp = await discoverRelyingParty(app);
    // The client registers no algorithm: it gets the default the key set can sign, and discovery
    // offers only algorithms some key signs with.
    const offered = rp.serverMetadata().id_token_signing_alg_values_supported ?? [];
    expect([...offered].sort()).toEqual([...supported].sort());
    const tokens = await signInThrough(rp, new TestBrowser(app, RP_HEADERS), {
      email: 'ada@example.com',
      password: PASSWORD,
    });
    expect(tokens.claims()?.email).toBe('ada@example.com');
    const idToken = String(tokens.id_token);
    expect(headerOf(idToken)).toMatchObject({ alg, kid });
    const keySet = await published(app);
    expect(verifiedBy(idToken, keySet)).toBe(true);
    expect(keySet.every((key) => key.d === undefined)).toBe(true);
  });
});

describe('OIDC_JWKS refused at start, naming the bad key', () => {
  const refusal = (value: string) => {
    try {
      loadConfig({ OIDC_JWKS: value });
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
    return 'accepted';
  };
  const ec = privateJwk('ec', 'ec-1');
  const { d: _d, ...publicEc } = ec;
  const p384 = {
    ...generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'jwk' }),
    kid: 'p384',
  };
  const { kid: _kid, ...noKid } = ec;

  it.each([
    ['a public key', jwksOf(publicEc), 'key "ec-1": must be a private key (with "d")'],
    ['a key without kid', jwksOf(noKid), 'key 1: needs a "kid"'],
    [
      'two keys with one kid',
      jwksOf(ec, privateJwk('rsa', 'ec-1')),
      'key "ec-1": the kid is used by another key too',
    ],
    ['an EC key on P-384', jwksOf(p384), 'key "p384": an EC key must be on the curve P-256'],
    [
      'a symmetric key',
      jwksOf({ kty: 'oct', k: 'c2VjcmV0', kid: 'hs' }),
      'key "hs": kty must be RSA, EC or OKP',
    ],
    ['an algorithm the key cannot sign', jwksOf({ ...ec, alg: 'RS256' }), 'key "ec-1": alg must be ES256'],
    ['an encryption key', jwksOf({ ...ec, use: 'enc' }), 'key "ec-1": use must be "sig"'],
    [
      'members that do not fit',
      jwksOf({ ...ec, x: privateJwk('ec', 'other').x }),
      'key "ec-1": is not a valid private key',
    ],
    ['an empty set', jwksOf(), 'must hold at least one key'],
    // OpenID Connect Core §15.1, Discovery §3: RS256 is required of every provider.
    ['EC P-256 keys only', jwksOf(ec), 'must hold an RSA key that signs RS256'],
    ['Ed25519 keys only', jwksOf(privateJwk('ed25519', 'ed-1')), 'must hold an RSA key that signs RS256'],
    [
      'an RSA key named for PS256 only',
      jwksOf({ ...privateJwk('rsa', 'ps-1'), alg: 'PS256' }, ec),
      'must hold an RSA key that signs RS256',
    ],
    ['no key set', '[1]', 'must be a JSON Web Key Set'],
  ])('%s', (_case, value, message) => {
    const text = refusal(value);
    expect(text).toContain(`OIDC_JWKS: ${message}`);
    expect(text).not.toContain(String(ec.d));
  });
});

describe('key rotation (keys:rotate): grace period, signing, retention', () => {
  const clock = manualClock();
  const env = {
    OIDC_JWKS: jwksOf(privateJwk('rsa', 'old-rsa')),
    OIDC_KEY_GRACE_MINUTES: '60',
    OIDC_KEY_RETAIN_MINUTES: '1440',
    PUBLIC_URL: RP_PUBLIC_URL,
    TRUST_PROXY: 'true',
  };
  const service = useTestService({
    env,
    clock,
    instances: 2,
    setUp: async ({ db }) => {
      await registerTestClient(db);
      await createAccount(db, 'rotation@example.com', PASSWORD);
    },
  });
  const deps = () => ({
    db: service().db,
    clock,
    signingKeys: signingKeySettings(loadConfig({ NODE_ENV: 'test', ...env })),
  });
  const signIn = async (app: FastifyInstance) =>
    String(
      (
        await signInThrough(await discoverRelyingParty(app), new TestBrowser(app, RP_HEADERS), {
          email: 'rotation@example.com',
          password: PASSWORD,
        })
      ).id_token,
    );
  const kidsOn = async (app: FastifyInstance) => (await published(app)).map((key) => key.kid);

  it('publishes the new key first, signs with it after the grace, and keeps the old one until its tokens expire', async () => {
    const [first, second] = [service().instance(0), service().instance(1)];
    const before = await signIn(first);
    expect(headerOf(before).kid).toBe('old-rsa');

    const rotatedAt = (await clock.now()).getTime();
    const rotation = await rotateKeys(deps(), {});
    const next = rotation.keys.find((key) => key.state === 'next');
    expect(next).toMatchObject({ kty: 'RSA', algorithms: ['RS256', 'PS256'], origin: 'rotation' });
    expect(next?.signsFrom).toBe(new Date(rotatedAt + 60 * MINUTE).toISOString());
    const newKid = String(next?.kid);
    await expect(rotateKeys(deps(), {})).rejects.toMatchObject({ code: 'conflict' });

    // Every instance reads the stored keys again within KEY_RELOAD_MS (30 s): the new key is published.
    clock.advance(31 * SECOND);
    for (const app of [first, second]) expect(await kidsOn(app)).toEqual(['old-rsa', newKid]);
    expect(headerOf(await signIn(second)).kid).toBe('old-rsa');

    // Grace period: 60 minutes after the rotation the new key signs, on every instance.
    clock.advance(60 * MINUTE - 31 * SECOND - SECOND);
    expect(headerOf(await signIn(first)).kid).toBe('old-rsa');
    clock.advance(2 * SECOND);
    const after = await signIn(first);
    expect(headerOf(after).kid).toBe(newKid);
    expect(headerOf(await signIn(second)).kid).toBe(newKid);
    expect(await kidsOn(first)).toEqual([newKid, 'old-rsa']);
    expect((await listKeys(deps(), {})).keys.map((key) => [key.kid, key.state])).toEqual([
      [newKid, 'current'],
      ['old-rsa', 'retired'],
    ]);

    // The old key signed until the switch; a JWT access token it signed may live a day, so it stays
    // published 1440 minutes more (OIDC_KEY_RETAIN_MINUTES), verifying what it signed, then leaves.
    clock.advance(1440 * MINUTE - 2 * SECOND);
    for (const app of [first, second]) expect(verifiedBy(before, await published(app))).toBe(true);
    clock.advance(2 * SECOND);
    for (const app of [first, second]) {
      const keys = await published(app);
      expect(keys.map((key) => key.kid)).toEqual([newKid]);
      expect(verifiedBy(before, keys)).toBe(false);
      expect(verifiedBy(after, keys)).toBe(true);
    }
  });
});

describe('a rotation of keys stored before RS256 was required', () => {
  const service = useTestService({ clock: manualClock() });

  it('adds an RSA key that signs RS256 beside the replacement of each kind', async () => {
    // A base set OIDC_JWKS can no longer hold (EC only), as a database of an earlier version signs with.
    const ecOnly = [privateJwk('ec', 'stored-ec')];
    const deps = () => ({
      db: service().db,
      signingKeys: { configured: ecOnly as never, graceMs: 60 * MINUTE, retainMs: 1440 * MINUTE },
    });
    const rotation = await rotateKeys(deps(), {});
    const next = rotation.keys.filter((key) => key.state === 'next');
    expect(next.map((key) => [key.kty, key.algorithms])).toEqual(
      expect.arrayContaining([
        ['EC', ['ES256']],
        ['RSA', ['RS256', 'PS256']],
      ]),
    );
    expect(next).toHaveLength(2);
    // Until the new RSA key signs, a client cannot ask for ID tokens it would sign.
    const asking = { id: 'rs256-early', name: 'Early', redirectUris: ['https://early.example/cb'] };
    await expect(addClient(deps(), { ...asking, idTokenSignedResponseAlg: 'RS256' })).rejects.toMatchObject({
      code: 'invalid_input',
      field: 'idTokenSignedResponseAlg',
    });
    await addClient(deps(), { ...asking, idTokenSignedResponseAlg: 'ES256' });
  });
});

/** The detail of the last admin audit row of `command`. */
async function auditDetail(db: Db, command: string): Promise<unknown> {
  return (await adminEvents(db, command)).at(-1)?.detail;
}

/**
 * `db`, whose transactions begin once `meanwhile` has run: what another process committed after a
 * key command's reads outside its transaction and before its own transaction took the key lock.
 */
function withMeanwhileBeforeTransaction(db: Db, meanwhile: () => Promise<void>): Db {
  let pending = true;
  return new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'transaction' && typeof value === 'function') {
        return async (...args: unknown[]) => {
          if (pending) {
            pending = false;
            await meanwhile();
          }
          return value.apply(target, args);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('a key command that waited for another decides at the time it holds the key lock', () => {
  const env = { OIDC_JWKS: jwksOf(privateJwk('rsa', 'base-rsa')) };
  /**
   * The service of the describe block it is called in: each test has one of its own, starting from
   * the base key alone, as each rotates for good.
   */
  function keyLockService() {
    const clock = manualClock();
    const service = useTestService({ env, clock });
    const deps = (db: Db = service().db) => ({
      db,
      clock,
      signingKeys: signingKeySettings(loadConfig({ NODE_ENV: 'test', ...env })),
    });
    const states = async () =>
      (await listKeys(deps(), {})).keys.map((key) => [key.kid, key.state] as const).sort();
    return { clock, service, deps, states };
  }

  describe('a revocation that waited', () => {
    const { clock, service, deps, states } = keyLockService();

    it('keys:revoke of a key a rotation --now retired meanwhile replaces nothing and keeps the rotation signing', async () => {
      let rotated: string[] = [];
      // A second after the revocation's first reads, another process rotates at once and commits.
      const waited = withMeanwhileBeforeTransaction(service().db, async () => {
        clock.advance(SECOND);
        const rotation = await rotateKeys(deps(), { now: true });
        rotated = rotation.keys.filter((key) => key.state === 'current').map((key) => key.kid);
      });
      const result = await revokeKeys(deps(waited), { kids: ['base-rsa'] });
      expect(rotated).toHaveLength(1);
      // At the time of its lock the base key had stopped signing: no replacement, nothing dropped.
      expect(result).toMatchObject({ revoked: ['base-rsa'], replacements: [] });
      expect(await states()).toEqual(rotated.map((kid) => [kid, 'current']));
      expect(await auditDetail(service().db, 'keys:revoke')).toMatchObject({ dropped: '', replacements: '' });
    });
  });

  describe('a rotation that waited', () => {
    const { clock, service, deps, states } = keyLockService();

    it('keys:rotate --now after a rotation --now committed meanwhile retires its keys instead of dropping them', async () => {
      const before = await states();
      let rotated: string[] = [];
      const waited = withMeanwhileBeforeTransaction(service().db, async () => {
        clock.advance(SECOND);
        const rotation = await rotateKeys(deps(), { now: true });
        rotated = rotation.keys.filter((key) => key.state === 'current').map((key) => key.kid);
      });
      const result = await rotateKeys(deps(waited), { now: true });
      const earlier = [...before.map(([kid]) => kid), ...rotated];
      const added = result.keys.map((key) => key.kid).filter((kid) => !earlier.includes(kid));
      expect(rotated).toHaveLength(1);
      expect(added).toHaveLength(1);
      // Begun the very millisecond the other did, its keys sign a millisecond later (signFromNow); the
      // meanwhile rotation signed until then, so its key stays published until its tokens expire.
      clock.advance(1);
      expect(await states()).toEqual(
        [...added.map((kid) => [kid, 'current']), ...earlier.map((kid) => [kid, 'retired'])].sort(),
      );
      expect(await auditDetail(service().db, 'keys:rotate')).toMatchObject({ now: true, dropped: '' });
    });
  });
});
