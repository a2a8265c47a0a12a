import {
  errorBodySchema,
  revokedSigningKeysView,
  type SigningKeyView,
  signingKeysView,
} from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { type Clock, databaseClock } from '../src/store/clock.ts';
import { ADMIN_CLIENT, adminEvents, useAdminApi } from './admin-api-kit.ts';
import { runAdmin } from './admin-harness.ts';
import { auditedKids, hintVouches, publishedKids, signInForIdToken } from './key-kit.ts';
import { buildTestApp } from './support/app.ts';
import { createAccount, registerTestClient } from './support/oidc-flow.ts';
import { headerOf } from './support/relying-party.ts';

// A leaked signing key (DESIGN §1 signing keys, §2): keys:revoke withdraws it at once, on the
// generated development keys (an RSA and an EC key of the base set, which have no row of their own).

const EMAIL = 'revocation@example.com';
const PASSWORD = 'Key-Revocation-42';

/**
 * The service of the describe block it is called in: each test has one of its own, as a revocation
 * changes the key set for good (and one the CLI makes reaches the instance only at its 30 s read), so
 * every test starts from the development keys with nothing revoked.
 */
function revocationService({ signsIn = false } = {}) {
  const { service, api } = useAdminApi({
    // The relying party and the person, only for a test that signs in: the password hash takes time.
    setUp: async ({ db }) => {
      if (!signsIn) return;
      await registerTestClient(db);
      await createAccount(db, EMAIL, PASSWORD);
    },
  });
  const revoke = (kids: unknown) => api('POST', '/signing-keys/revoke', { kids });
  const listed = async (): Promise<SigningKeyView[]> =>
    signingKeysView.parse((await api('GET', '/signing-keys')).json()).keys;
  return {
    service,
    api,
    app: () => service().app,
    revoke,
    listed,
    /** The leak most tests start from: the signing RSA key of the base set, revoked through the API. */
    async revokeSigningRsa() {
      expect((await revoke([kidOf(await listed(), 'RSA', 'current')])).statusCode).toBe(200);
    },
  };
}

const kidsOf = (keys: readonly SigningKeyView[], state: SigningKeyView['state']) =>
  keys.filter((key) => key.state === state).map((key) => key.kid);

function kidOf(keys: readonly SigningKeyView[], kty: string, state: SigningKeyView['state']): string {
  const key = keys.find((candidate) => candidate.kty === kty && candidate.state === state);
  if (!key) throw new Error(`no ${state} ${kty} key`);
  return key.kid;
}

describe('keys:revoke through the admin API: leaked keys leave the key set at once', () => {
  describe('a request that names no key, or one unknown', () => {
    const { service, app, revoke } = revocationService();

    it('refuses an empty list and an unknown kid, and revokes nothing', async () => {
      const before = await publishedKids(app());
      const empty = await revoke([]);
      expect(empty.statusCode).toBe(400);
      expect(errorBodySchema.parse(empty.json())).toMatchObject({ code: 'invalid_input', field: 'kids' });

      // One unknown kid refuses the whole request, the known one beside it included.
      const unknown = await revoke([before[0], 'no-such-kid', 'nor-this-one']);
      expect(unknown.statusCode).toBe(404);
      const body = errorBodySchema.parse(unknown.json());
      expect(body).toMatchObject({ code: 'not_found', field: 'kids' });
      expect(body.message).toContain('"no-such-kid", "nor-this-one"');
      expect(await publishedKids(app())).toEqual(before);
      expect(await adminEvents(service().db, 'keys:revoke')).toEqual([]);
    });
  });

  describe('the signing RSA key of the base set', () => {
    const { service, app, revoke, listed } = revocationService({ signsIn: true });

    it('revokes the signing RSA key of the base set: new keys sign at once, and neither the JWKS nor an id_token_hint knows the old one', async () => {
      const before = await listed();
      const [baseRsa, baseEc] = [kidOf(before, 'RSA', 'current'), kidOf(before, 'EC', 'current')];
      const { browser, idToken } = await signInForIdToken(app(), EMAIL, PASSWORD);
      expect(headerOf(idToken).kid).toBe(baseRsa);

      const response = await revoke([baseRsa]);
      expect(response.statusCode).toBe(200);
      const result = revokedSigningKeysView.parse(response.json());
      expect(result).toMatchObject({ revoked: [baseRsa], alreadyRevoked: [] });
      // No grace period: a new key of each type signs from now; the other base key retires.
      expect(result.replacements).toHaveLength(2);
      expect(kidsOf(result.keys, 'current').sort()).toEqual([...result.replacements].sort());
      expect(kidsOf(result.keys, 'retired')).toEqual([baseEc]);
      expect(kidsOf(result.keys, 'next')).toEqual([]);

      const published = await publishedKids(app());
      expect(published).not.toContain(baseRsa);
      expect([...published].sort()).toEqual([...result.replacements, baseEc].sort());
      const after = await signInForIdToken(app(), EMAIL, PASSWORD);
      expect(headerOf(after.idToken)).toEqual({ alg: 'RS256', kid: kidOf(result.keys, 'RSA', 'current') });
      // The ID token the revoked key signed no longer vouches for a sign-out: the person is asked.
      expect(await hintVouches(browser, idToken)).toBe(false);
      expect(await hintVouches(after.browser, after.idToken)).toBe(true);

      const [event] = await adminEvents(service().db, 'keys:revoke');
      expect(event?.detail).toMatchObject({
        actor: ADMIN_CLIENT,
        kids: baseRsa,
        alreadyRevoked: '',
        replacements: result.replacements.join(','),
      });
    });
  });

  describe('a revoked base key and an instance started after it', () => {
    const { service, app, revokeSigningRsa } = revocationService();

    it('is not published by an instance started after it, whose first provider is built from the base keys', async () => {
      // The leak: the signing RSA key of the base set, revoked before the instance starts.
      await revokeSigningRsa();
      const revoked = (await auditedKids(service().db, 'keys:revoke', 'kids')).flat();
      const started = await buildTestApp(service().db);
      try {
        const published = await publishedKids(started);
        expect(published).toEqual(await publishedKids(app()));
        for (const kid of revoked) expect(published).not.toContain(kid);
      } finally {
        await started.close();
      }
    });
  });

  describe('a revoked base key and an instance whose first read is interrupted', () => {
    const { service, app, revokeSigningRsa } = revocationService();

    it('is not published by an instance whose first read of the keys meets an announcement of a change (its listener starting, say)', async () => {
      await revokeSigningRsa();
      const revoked = (await auditedKids(service().db, 'keys:revoke', 'kids')).flat();
      const clock = databaseClock(service().db);
      let announce: (() => void) | undefined;
      // The read takes the time after the keys: an invalidation lands there, while the read is in flight.
      const announcing: Clock = {
        ...clock,
        async now() {
          const fire = announce;
          announce = undefined;
          fire?.();
          return clock.now();
        },
      };
      const started = await buildTestApp(service().db, { clock: announcing });
      try {
        announce = () => started.keySchedule.invalidate();
        const published = await publishedKids(started);
        for (const kid of revoked) expect(published).not.toContain(kid);
        expect(published).toEqual(await publishedKids(app()));
      } finally {
        await started.close();
      }
    });
  });

  describe('a retired key', () => {
    const { app, revoke, listed, revokeSigningRsa } = revocationService();

    it('revokes a retired key: it leaves the key set at once, and what signs stays', async () => {
      // The signing RSA key of the base set revoked: the EC key beside it retires.
      await revokeSigningRsa();
      const before = await listed();
      const retired = kidsOf(before, 'retired');
      expect(retired).toHaveLength(1);

      const result = revokedSigningKeysView.parse((await revoke(retired)).json());
      expect(result).toMatchObject({ revoked: retired, replacements: [] });
      expect(kidsOf(result.keys, 'current')).toEqual(kidsOf(before, 'current'));
      expect(await publishedKids(app())).toEqual(kidsOf(before, 'current'));
    });
  });

  describe('a key waiting to sign', () => {
    const { service, api, app, revoke } = revocationService();

    it('revokes a key waiting to sign: it never signs, new keys sign at once and the rest of its rotation is dropped', async () => {
      const rotation = signingKeysView.parse((await api('POST', '/signing-keys/rotate')).json()).keys;
      const waiting = kidsOf(rotation, 'next');
      expect(waiting).toHaveLength(2);
      const current = kidsOf(rotation, 'current');

      const result = revokedSigningKeysView.parse((await revoke([kidOf(rotation, 'RSA', 'next')])).json());
      expect(result.replacements).toHaveLength(2);
      expect(kidsOf(result.keys, 'next')).toEqual([]);
      expect(kidsOf(result.keys, 'current').sort()).toEqual([...result.replacements].sort());
      expect(kidsOf(result.keys, 'retired').sort()).toEqual([...current].sort());
      const published = await publishedKids(app());
      for (const kid of waiting) expect(published).not.toContain(kid);

      expect((await auditedKids(service().db, 'keys:revoke', 'dropped')).at(-1)).toEqual([...waiting].sort());
    });
  });

  describe('kids revoked before', () => {
    const { service, revoke, listed, revokeSigningRsa } = revocationService();

    it('reports a kid revoked before and changes nothing', async () => {
      // Two revocations before: the signing RSA key of the base set, then the EC key it retired.
      await revokeSigningRsa();
      expect((await revoke(kidsOf(await listed(), 'retired'))).statusCode).toBe(200);
      const before = await listed();
      const revokedEarlier = (await auditedKids(service().db, 'keys:revoke', 'kids')).slice(0, 2).flat();

      const response = await revoke(revokedEarlier);
      expect(response.statusCode).toBe(200);
      const result = revokedSigningKeysView.parse(response.json());
      expect(result).toMatchObject({ revoked: [], alreadyRevoked: revokedEarlier, replacements: [] });
      expect(result.keys).toEqual(before);
      expect(await listed()).toEqual(before);
      // The order is on record all the same.
      const event = (await adminEvents(service().db, 'keys:revoke')).at(-1);
      expect(event?.detail).toMatchObject({ kids: '', alreadyRevoked: revokedEarlier.join(',') });
    });
  });

  describe('every published key', () => {
    const { service, app, revoke } = revocationService({ signsIn: true });

    it('leaves a key that signs RS256 when every published key is revoked', async () => {
      const everything = await publishedKids(app());
      const result = revokedSigningKeysView.parse((await revoke(everything)).json());
      expect(result.revoked.sort()).toEqual([...everything].sort());
      // OpenID Connect Core §15.1: RS256 is required of every provider.
      const rsa = result.keys.find((key) => key.kty === 'RSA' && key.state === 'current');
      expect(rsa?.algorithms).toContain('RS256');
      expect((await publishedKids(app())).sort()).toEqual([...result.replacements].sort());
      const { idToken } = await signInForIdToken(app(), EMAIL, PASSWORD);
      expect(headerOf(idToken)).toEqual({ alg: 'RS256', kid: rsa?.kid });
      // Its audit row names every kid revoked and every replacement, and when those began to sign.
      const [row] = (await adminEvents(service().db, 'keys:revoke')).slice(-1);
      expect(row?.outcome).toBe('success');
      const detail = row?.detail as Record<string, string>;
      expect(detail.kids?.split(',').sort()).toEqual([...everything].sort());
      expect(detail.replacements?.split(',').sort()).toEqual([...result.replacements].sort());
      expect(detail.signsFrom).toBe(rsa?.signsFrom);
    });
  });

  describe('on the command line', () => {
    const { service, listed } = revocationService();

    it('runs as keys:revoke on the command line, and refuses an unknown kid or none', async () => {
      const { db } = service();
      const ec = kidOf(await listed(), 'EC', 'current');
      const run = await runAdmin(['keys:revoke', '--kid', ec], { db });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(
        `revoked ${ec}: no longer published or signing (every instance applies it`,
      );
      expect(run.stdout).toMatch(/2 new keys sign from now: /);
      expect(run.stdout).toContain('Remove a revoked kid from OIDC_JWKS as well.');

      const again = await runAdmin(['keys:revoke', '--kid', ec, '--json'], { db });
      expect(again.json()).toMatchObject({ ok: true, result: { revoked: [], alreadyRevoked: [ec] } });

      const unknown = await runAdmin(['keys:revoke', '--kid', 'no-such-kid'], { db });
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain('no signing key has the kid "no-such-kid"; nothing was revoked');
      const none = await runAdmin(['keys:revoke'], { db });
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('missing --kid');
    });
  });
});
