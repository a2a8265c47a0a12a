import { signingKeysView } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { ADMIN_CLIENT, adminEvents, useAdminApi } from './admin-api-kit.ts';
import { runAdmin } from './admin-harness.ts';
import { auditedKids, publishedKids } from './key-kit.ts';

// Each test has a service of its own (useAdminApi in its describe block): a rotation changes the key
// set for good, so every test starts from the generated development keys.

describe('signing keys through the admin API and the CLI (keys:list, keys:rotate, keys:rotate --now)', () => {
  describe('the keys as generated', () => {
    const { api } = useAdminApi();

    it('lists the generated development keys, an RSA and an EC P-256 key, both signing', async () => {
      const response = await api('GET', '/signing-keys');
      expect(response.statusCode).toBe(200);
      const { keys } = signingKeysView.parse(response.json());
      expect(keys.map((key) => [key.kty, key.state, key.origin])).toEqual([
        ['RSA', 'current', 'base'],
        ['EC', 'current', 'base'],
      ]);
      expect(keys.map((key) => key.algorithms)).toEqual([['RS256', 'PS256'], ['ES256']]);
      expect(response.body).not.toContain('"d"');
    });
  });

  describe('a rotation', () => {
    const { service, api } = useAdminApi();

    it('rotates: a new key of each type, published now and signing after the grace; a second rotation waits', async () => {
      const listed = await runAdmin(['keys:list'], { db: service().db });
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(/RSA RS256\/PS256 {2}current \(base\): signs/);

      const response = await api('POST', '/signing-keys/rotate');
      expect(response.statusCode).toBe(201);
      const { keys } = signingKeysView.parse(response.json());
      const next = keys.filter((key) => key.state === 'next');
      expect(next.map((key) => [key.kty, key.origin])).toEqual([
        ['RSA', 'rotation'],
        ['EC', 'rotation'],
      ]);
      // OIDC_KEY_GRACE_MINUTES defaults to 60.
      const now = Date.now();
      const signsFrom = Date.parse(String(next[0]?.signsFrom));
      expect(signsFrom - now).toBeGreaterThan(59 * 60_000);
      expect(signsFrom - now).toBeLessThanOrEqual(60 * 60_000);

      const [event] = await adminEvents(service().db, 'keys:rotate');
      expect(event?.detail).toMatchObject({
        actor: ADMIN_CLIENT,
        kids: next.map((key) => key.kid).join(','),
      });

      const again = await runAdmin(['keys:rotate'], { db: service().db });
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain('the keys of the last rotation sign from');
      const refused = await api('POST', '/signing-keys/rotate');
      expect(refused.statusCode).toBe(409);
    });
  });

  describe('a rotation with now while one waits', () => {
    const { service, api } = useAdminApi();

    it('rotates with now while a rotation waits: the new keys sign at once and the waiting ones are dropped', async () => {
      // The rotation that waits, its keys signing after the grace.
      expect((await api('POST', '/signing-keys/rotate')).statusCode).toBe(201);
      const before = signingKeysView.parse((await api('GET', '/signing-keys')).json()).keys;
      const waiting = before.filter((key) => key.state === 'next').map((key) => key.kid);
      expect(waiting).toHaveLength(2);
      const signing = before.filter((key) => key.state === 'current').map((key) => key.kid);

      const response = await api('POST', '/signing-keys/rotate', { now: true });
      expect(response.statusCode).toBe(201);
      const { keys } = signingKeysView.parse(response.json());
      const current = keys.filter((key) => key.state === 'current');
      expect(current.map((key) => [key.kty, key.origin])).toEqual([
        ['RSA', 'rotation'],
        ['EC', 'rotation'],
      ]);
      expect(keys.filter((key) => key.state === 'next')).toEqual([]);
      expect(keys.filter((key) => key.state === 'retired').map((key) => key.kid)).toEqual(signing);
      // This instance signs with them from its next request: they come first in its key set.
      const published = await publishedKids(service().app);
      expect(published.slice(0, 2).sort()).toEqual(current.map((key) => key.kid).sort());
      for (const kid of waiting) expect(published).not.toContain(kid);

      const event = (await adminEvents(service().db, 'keys:rotate')).at(-1);
      expect(event?.detail).toMatchObject({ actor: ADMIN_CLIENT, now: true });
      expect((await auditedKids(service().db, 'keys:rotate', 'dropped')).at(-1)).toEqual([...waiting].sort());
      const notABoolean = await api('POST', '/signing-keys/rotate', { now: 'yes' });
      expect(notABoolean.statusCode).toBe(400);
    });
  });

  describe('a rotation with --now on the command line', () => {
    const { service } = useAdminApi();

    it('rotates with --now on the command line: the keys it adds sign at once', async () => {
      const run = await runAdmin(['keys:rotate', '--now'], { db: service().db });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('added 2 keys, published and signing now;');
      const listed = await runAdmin(['keys:list', '--json'], { db: service().db });
      const { keys } = signingKeysView.parse(listed.json().result);
      expect(keys.filter((key) => key.state === 'current')).toHaveLength(2);
      expect(keys.filter((key) => key.state === 'next')).toEqual([]);
    });
  });
});
