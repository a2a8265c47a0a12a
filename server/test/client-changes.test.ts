import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ClientCache } from '../src/oidc/client-cache.ts';
import { followClientChanges } from '../src/oidc/client-changes.ts';
import { removeClient, updateClient } from '../src/provisioning/client-operations.ts';
import { LISTENER_APPLICATION_NAME, type NotificationListener } from '../src/store/notification-listener.ts';
import { buildTestApp } from './support/app.ts';
import { MOVED_URI, moveRedirect, takesRedirect, unannounced } from './support/client-moves.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { REDIRECT_URI, registerTestClient } from './support/oidc-flow.ts';

/**
 * The client cache across instances on PostgreSQL (oidc/client-cache.ts, oidc/client-changes.ts):
 * two instances of the app on one database, each with its own cache and listener, as two processes
 * of a fleet run. vitest.config.ts includes this file only when DATABASE_URL names a PostgreSQL server.
 */
interface Instance {
  readonly app: FastifyInstance;
  readonly cache: ClientCache;
  readonly listener: NotificationListener;
  readonly log: { info: string[]; warn: string[] };
}

let database: TestDatabase;
const instances: Instance[] = [];

async function startInstance(timing: { retryMs?: readonly number[] } = {}): Promise<Instance> {
  const cache = new ClientCache();
  const app = await buildTestApp(database.database.db, { clientCache: cache });
  const log = { info: [] as string[], warn: [] as string[] };
  const listener = followClientChanges(
    String(database.databaseUrl),
    cache,
    { info: (message) => log.info.push(message), warn: (message) => log.warn.push(message) },
    timing,
  );
  const instance = { app, cache, listener, log };
  instances.push(instance);
  await vi.waitFor(() => expect(cache.enabled).toBe(true), { timeout: 10_000 });
  return instance;
}

const authorizes = (instance: Instance, redirectUri: string) => takesRedirect(instance.app, redirectUri);
const moveTo = (uri: string) => moveRedirect(database.database.db, uri);

beforeAll(async () => {
  database = await createTestDatabase();
  await registerTestClient(database.database.db);
});

afterEach(async () => {
  for (const instance of instances.splice(0)) {
    await instance.listener.close();
    await instance.app.close();
  }
  await moveTo(REDIRECT_URI);
});

afterAll(() => database.dispose());

describe('client registrations kept across requests on PostgreSQL', () => {
  it('are answered from memory once read: a change nobody announces goes unseen', async () => {
    const instance = await startInstance();
    expect(await authorizes(instance, REDIRECT_URI)).toBe(true);
    expect(instance.cache.size).toBe(1);
    // Without the table's trigger (migration 0009) a change is not announced: the instance answers
    // from what it read, which is why it caches only while it hears every announced change.
    await unannounced(database.database.db, () => moveTo(MOVED_URI));
    expect(await authorizes(instance, REDIRECT_URI)).toBe(true);
    expect(await authorizes(instance, MOVED_URI)).toBe(false);
  });

  it('follow a change made elsewhere: another instance’s next request uses the new registration', async () => {
    const [first, second] = [await startInstance(), await startInstance()];
    expect(await authorizes(second, REDIRECT_URI)).toBe(true);
    expect(second.cache.size).toBe(1);
    await moveTo(MOVED_URI);
    // Announced once the change commits; the cache drops the client when it hears of it.
    await vi.waitFor(() => expect(second.cache.size).toBe(0), { timeout: 5_000 });
    expect(await authorizes(second, MOVED_URI)).toBe(true);
    expect(await authorizes(second, REDIRECT_URI)).toBe(false);
    expect(await authorizes(first, MOVED_URI)).toBe(true);
  });

  it('follow a removal made elsewhere: another instance refuses the client from its next request', async () => {
    const [first, second] = [await startInstance(), await startInstance()];
    expect(await authorizes(second, REDIRECT_URI)).toBe(true);
    expect(second.cache.size).toBe(1);
    await removeClient({ db: database.database.db, clientCache: first.cache }, { id: 'planner' });
    await vi.waitFor(() => expect(second.cache.size).toBe(0), { timeout: 5_000 });
    expect(await authorizes(second, REDIRECT_URI)).toBe(false);
    expect(await authorizes(first, REDIRECT_URI)).toBe(false);
    // The next tests sign in to it.
    await registerTestClient(database.database.db);
  });

  it('follow a change made through this instance at once, before any announcement is heard', async () => {
    // The listener is taken away after start-up: only the forgetting after the commit can help.
    const instance = await startInstance();
    // Closed, the listener hears nothing more (and leaves the cache as it was, on).
    await instance.listener.close();
    expect(await authorizes(instance, REDIRECT_URI)).toBe(true);
    expect(instance.cache.size).toBe(1);
    await updateClient(
      { db: database.database.db, clientCache: instance.cache },
      { id: 'planner', redirectUris: [MOVED_URI] },
    );
    expect(await authorizes(instance, MOVED_URI)).toBe(true);
    expect(await authorizes(instance, REDIRECT_URI)).toBe(false);
  });

  it('are not kept while changes cannot be heard, and are again once the listener is back', async () => {
    const staysDown = await startInstance({ retryMs: [3_600_000] });
    const comesBack = await startInstance({ retryMs: [200] });
    expect(await authorizes(staysDown, REDIRECT_URI)).toBe(true);
    expect(staysDown.cache.size).toBe(1);
    // An administrator ends the listeners' connections (a failover would too).
    await database.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
    );
    await vi.waitFor(() => expect(staysDown.cache.enabled).toBe(false), { timeout: 5_000 });
    expect(staysDown.cache.size).toBe(0);
    expect(staysDown.log.warn).toEqual([expect.stringMatching(/^Client changes can no longer be heard \(/)]);
    // Changed while nobody hears it: the instance reads the table, so it still follows.
    await moveTo(MOVED_URI);
    expect(await authorizes(staysDown, MOVED_URI)).toBe(true);
    expect(await authorizes(staysDown, REDIRECT_URI)).toBe(false);
    expect(staysDown.cache.size).toBe(0);

    await vi.waitFor(() => expect(comesBack.cache.enabled).toBe(true), { timeout: 5_000 });
    expect(comesBack.log.info).toEqual(['Client changes are heard again: registrations are cached again']);
    expect(await authorizes(comesBack, MOVED_URI)).toBe(true);
    expect(comesBack.cache.size).toBe(1);
  });
});
