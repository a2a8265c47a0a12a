import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { followKeyChangesIn } from '../src/oidc/key-changes.ts';
import { signingKeySettings } from '../src/oidc/keys.ts';
import { KEY_RELOAD_MS } from '../src/oidc/provider-source.ts';
import { listKeys, revokeKeys, rotateKeys } from '../src/provisioning/key-operations.ts';
import { type Clock, manualClock } from '../src/store/clock.ts';
import type { NotificationListener } from '../src/store/notification-listener.ts';
import { attemptSignIn } from './admin-api-kit.ts';
import { hintVouches, publishedKids, signInForIdToken } from './key-kit.ts';
import { buildTestApp, testConfig } from './support/app.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { createAccount, redeemCode, registerTestClient, resumeToCode } from './support/oidc-flow.ts';
import { headerOf } from './support/relying-party.ts';

/**
 * Rotations and revocations across instances (oidc/key-changes.ts): two instances of the app on one
 * database, each told of changes by the tables' trigger (migration 0013) through its own listener, as
 * main.ts starts it: on PostgreSQL a LISTEN connection of its own, on the embedded store PGlite's
 * listen. The change is made as the admin CLI makes it, in no instance. The clock only moves when a
 * test moves it, so no instance reads the keys again by KEY_RELOAD_MS: only the announcement can
 * have told it.
 */

const EMAIL = 'key-changes@example.com';
const PASSWORD = 'Key-Changes-42';
const SECOND = 1000;

const clock = manualClock();
let database: TestDatabase;
const apps: FastifyInstance[] = [];
const listeners: NotificationListener[] = [];

/** The admin CLI's deps: its own process, with no instance's key schedule to tell. */
const cli = () => ({ db: database.database.db, clock, signingKeys: signingKeySettings(testConfig()) });

async function startInstance(listening: boolean): Promise<FastifyInstance> {
  const app = await buildTestApp(database.database.db, { clock });
  apps.push(app);
  if (listening) {
    const listener = await followKeyChangesIn(database.database, app.keySchedule, {
      info: () => {},
      warn: () => {},
    });
    if (listener) listeners.push(listener);
  }
  return app;
}

/** Waits for `app` to publish exactly what keys:list says, on PostgreSQL the time the notification takes. */
async function followed(app: FastifyInstance): Promise<string[]> {
  const listed = (await listKeys(cli(), {})).keys.map((key) => key.kid).sort();
  await vi.waitFor(async () => expect((await publishedKids(app)).sort()).toEqual(listed), {
    timeout: 5 * SECOND,
    interval: 20,
  });
  return listed;
}

/**
 * The test clock, which runs what `next()` answers (another process's commit) just after each reading
 * it gives: the reading is then a moment older than that commit.
 */
function readingThen(next: () => (() => Promise<void>) | undefined): Clock {
  return {
    ...clock,
    async now() {
      const run = next();
      const now = await clock.now();
      await run?.();
      return now;
    },
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  await registerTestClient(database.database.db);
  await createAccount(database.database.db, EMAIL, PASSWORD);
});

afterAll(async () => {
  for (const listener of listeners.splice(0)) await listener.close();
  for (const app of apps.splice(0)) await app.close();
  await database.dispose();
});

describe('signing key changes made elsewhere', () => {
  it('a revocation applies on every instance at its next request, without waiting for the 30 s read', async () => {
    // As in every test here, a second after any change an earlier test made: in the same millisecond,
    // the replacements would sign from the next (signFromNow), which this still clock never reaches.
    clock.advance(SECOND);
    const [first, second] = [await startInstance(true), await startInstance(true)];
    const before = await publishedKids(first);
    expect(await publishedKids(second)).toEqual(before);
    const { browser, idToken } = await signInForIdToken(second, EMAIL, PASSWORD);
    const leaked = headerOf(idToken).kid;

    const { replacements } = await revokeKeys(cli(), { kids: [leaked] });
    for (const app of [first, second]) expect(await followed(app)).not.toContain(leaked);
    const after = await signInForIdToken(second, EMAIL, PASSWORD);
    expect(replacements).toContain(headerOf(after.idToken).kid);
    // An ID token of the leaked key vouches for nothing at sign-out, on the other instance too.
    expect(await hintVouches(browser.on(first), idToken)).toBe(false);
  });

  it('a rotation with now applies on every instance at its next request', async () => {
    clock.advance(SECOND);
    const [first, second] = [await startInstance(true), await startInstance(true)];
    // Both have read the keys before the rotation: only its announcement can tell them.
    for (const app of [first, second]) await followed(app);
    const rotation = await rotateKeys(cli(), { now: true });
    const signing = rotation.keys.filter((key) => key.state === 'current').map((key) => key.kid);
    for (const app of [first, second]) expect(await followed(app)).toEqual(expect.arrayContaining(signing));
    const { idToken } = await signInForIdToken(first, EMAIL, PASSWORD);
    expect(signing).toContain(headerOf(idToken).kid);
  });

  it('reach an instance that hears nothing by the periodic read, within 30 s', async () => {
    clock.advance(SECOND);
    const deaf = await startInstance(false);
    const published = await publishedKids(deaf);
    const [leaked = ''] = published;
    await revokeKeys(cli(), { kids: [leaked] });
    expect(await publishedKids(deaf)).toEqual(published);
    clock.advance(KEY_RELOAD_MS - SECOND);
    expect(await publishedKids(deaf)).toEqual(published);
    clock.advance(SECOND);
    expect(await publishedKids(deaf)).not.toContain(leaked);
  });

  /**
   * An instance whose read of the keys straddles a revocation of every key that signs: the revocation
   * commits a millisecond after the instance's next reading of the clock, its replacements signing from
   * then. The token request after 30 s makes that read.
   */
  async function straddledRevocation(announced: boolean) {
    clock.advance(SECOND);
    let meanwhile: (() => Promise<void>) | undefined;
    const hooked = readingThen(() => {
      const run = meanwhile;
      meanwhile = undefined;
      return run;
    });
    const straddling = await buildTestApp(database.database.db, { clock: hooked });
    apps.push(straddling);
    const { browser, auth } = await attemptSignIn(straddling, EMAIL, PASSWORD);
    const code = await resumeToCode(browser, auth.returnUrl);
    clock.advance(KEY_RELOAD_MS);
    const signing = (await listKeys(cli(), {})).keys.filter((key) => key.state === 'current');
    let replacements: readonly string[] = [];
    meanwhile = async () => {
      clock.advance(1);
      ({ replacements } = await revokeKeys(cli(), { kids: signing.map((key) => key.kid) }));
      // As the instance's listener does once the change is announced.
      if (announced) straddling.keySchedule.invalidate();
    };
    const tokens = await redeemCode(straddling, code, auth.verifier);
    expect(meanwhile).toBeUndefined();
    const kid = headerOf(tokens.id_token).kid;
    expect(await publishedKids(straddling)).toContain(kid);
    return { kid, replacements, revoked: signing.map((key) => key.kid) };
  }

  it('leave an instance whose read of the keys straddles a revocation, not yet announced, with a key that signs', async () => {
    // Before, the time read first and the keys after, it found the revoked key out and its
    // replacements not begun, and answered 500.
    const { kid, replacements, revoked } = await straddledRevocation(false);
    expect([...replacements, ...revoked]).toContain(kid);
  });

  it('have an instance whose read of the keys an announced revocation straddles read them again and sign with a replacement', async () => {
    const { kid, replacements } = await straddledRevocation(true);
    expect(replacements).toContain(kid);
  });

  it('have an instance that announcements kept interrupting through all five reads read again at its next request', async () => {
    clock.advance(SECOND);
    let announcements = 0;
    const restless: Clock = {
      ...clock,
      async now() {
        if (announcements > 0) {
          announcements -= 1;
          instance.keySchedule.invalidate();
        }
        return clock.now();
      },
    };
    const instance = await buildTestApp(database.database.db, { clock: restless });
    apps.push(instance);
    const before = await publishedKids(instance);
    // Each of the next request's five reads of the keys meets an announcement.
    instance.keySchedule.invalidate();
    announcements = 5;
    expect(await publishedKids(instance)).toEqual(before);
    expect(announcements).toBe(0);
    // A revocation no one announces: only a read at the next request finds it, not 30 s later.
    const [leaked = ''] = before;
    await revokeKeys(cli(), { kids: [leaked] });
    expect(await publishedKids(instance)).not.toContain(leaked);
  });

  it('leave keys:list, whose read straddles a revocation of every key that signs, with a key that signs', async () => {
    clock.advance(SECOND);
    const signing = (await listKeys(cli(), {})).keys.filter((key) => key.state === 'current');
    let meanwhile: (() => Promise<void>) | undefined = async () => {
      clock.advance(1);
      await revokeKeys(cli(), { kids: signing.map((key) => key.kid) });
    };
    // The time read, then the revocation commits a millisecond later.
    const hooked = readingThen(() => {
      const run = meanwhile;
      meanwhile = undefined;
      return run;
    });
    const listed = await listKeys({ ...cli(), clock: hooked }, {});
    expect(meanwhile).toBeUndefined();
    expect(listed.keys.filter((key) => key.state === 'current').length).toBeGreaterThan(0);
  });

  it("have an instance sign with a rotation's key from the very millisecond it is due, not at the next 30 s read", async () => {
    clock.advance(SECOND);
    const instance = await startInstance(false);
    const rotation = await rotateKeys(cli(), {});
    const next = rotation.keys.find((key) => key.kty === 'RSA' && key.state === 'next');
    const signsFrom = Date.parse(String(next?.signsFrom));
    // Read 10 s before the key's time: the next read is due at that time, 20 s before the periodic one.
    clock.advance(signsFrom - (await clock.now()).getTime() - 10 * SECOND);
    expect(await publishedKids(instance)).toContain(next?.kid);
    clock.advance(10 * SECOND);
    const { idToken } = await signInForIdToken(instance, EMAIL, PASSWORD);
    expect(headerOf(idToken).kid).toBe(next?.kid);
  });

  it('have an instance whose clock went back since its last read read the keys again', async () => {
    // Further past any earlier test's key change than the minute the clock goes back below, so the
    // revocation meets keys that all sign by then, whichever test ran before.
    clock.advance(2 * 60 * SECOND);
    const instance = await startInstance(false);
    const [leaked = ''] = await publishedKids(instance);
    // The database's clock set back a minute (a correction): the last read looks to be in the future.
    clock.advance(-60 * SECOND);
    await revokeKeys(cli(), { kids: [leaked] });
    expect(await publishedKids(instance)).not.toContain(leaked);
    clock.advance(60 * SECOND);
  });
});
