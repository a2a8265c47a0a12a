import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ClientCache } from '../src/oidc/client-cache.ts';
import { followEmbeddedClientChanges } from '../src/oidc/client-changes.ts';
import type { Database } from '../src/store/database.ts';
import type { PgliteClient } from '../src/store/pglite-client.ts';
import { buildTestApp } from './support/app.ts';
import { MOVED_URI, moveRedirect, takesRedirect, unannounced } from './support/client-moves.ts';
import { openMigratedPglite } from './support/database.ts';
import { REDIRECT_URI, registerTestClient } from './support/oidc-flow.ts';

/**
 * The client cache on the embedded store (oidc/client-changes.ts followEmbeddedClientChanges): the
 * table's trigger notifies within PGlite, which passes the notification on once the change has
 * committed. vitest.config.ts runs this file once per CI run (the `processes` project): it opens an
 * embedded database whatever store the run is on.
 */
let database: Database;
let client: PgliteClient;
let app: FastifyInstance;
const cache = new ClientCache();

const authorizes = (redirectUri: string) => takesRedirect(app, redirectUri);

beforeAll(async () => {
  database = await openMigratedPglite();
  if (database.kind !== 'pglite') throw new Error('an embedded database was asked for');
  client = database.client;
  await registerTestClient(database.db);
  app = await buildTestApp(database.db, { clientCache: cache });
  await followEmbeddedClientChanges(client, cache);
});

// Each test starts on the registration as registered, and (the move announced) on an empty cache.
beforeEach(async () => {
  await moveRedirect(database.db, REDIRECT_URI);
});

afterAll(async () => {
  await app.close();
  await database.close();
});

describe('client registrations kept across requests on the embedded store', () => {
  it('are on once listening, and answered from memory: a change nobody announces goes unseen', async () => {
    expect(cache.enabled).toBe(true);
    expect(await authorizes(REDIRECT_URI)).toBe(true);
    expect(cache.size).toBe(1);
    await unannounced(database.db, () => moveRedirect(database.db, MOVED_URI));
    expect(await authorizes(REDIRECT_URI)).toBe(true);
    expect(await authorizes(MOVED_URI)).toBe(false);
  });

  it('follow an announced change at once: the next request uses the new registration', async () => {
    expect(await authorizes(REDIRECT_URI)).toBe(true);
    expect(cache.size).toBe(1);
    // The notification arrives before the statement's own answer: nothing to wait for.
    await moveRedirect(database.db, MOVED_URI);
    expect(cache.size).toBe(0);
    expect(await authorizes(MOVED_URI)).toBe(true);
    expect(await authorizes(REDIRECT_URI)).toBe(false);
  });

  it('are no longer kept once the embedded database is lost', async () => {
    // Its own cache and app: a lost database is lost for good, and the other tests go on with theirs.
    const ownCache = new ClientCache();
    const ownApp = await buildTestApp(database.db, { clientCache: ownCache });
    let loseDatabase: () => void = () => {};
    const lost = new Promise<void>((resolve) => {
      loseDatabase = resolve;
    });
    await followEmbeddedClientChanges(client, ownCache, lost);
    try {
      expect(await takesRedirect(ownApp, REDIRECT_URI)).toBe(true);
      expect(ownCache.size).toBe(1);
      loseDatabase();
      await new Promise((resolve) => setImmediate(resolve));
      expect(ownCache.enabled).toBe(false);
      expect(ownCache.size).toBe(0);
    } finally {
      await ownApp.close();
    }
  });
});
