import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { followKeyChanges } from '../src/oidc/key-changes.ts';
import { signingKeySettings } from '../src/oidc/keys.ts';
import { revokeKeys } from '../src/provisioning/key-operations.ts';
import { manualClock } from '../src/store/clock.ts';
import { LISTENER_APPLICATION_NAME } from '../src/store/notification-listener.ts';
import { rowsOf } from '../src/store/rows.ts';
import { publishedKids } from './key-kit.ts';
import { buildTestApp, testConfig } from './support/app.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';

/**
 * An instance whose listener for signing key changes (oidc/key-changes.ts) loses its connection, as
 * a failover or an administrator ends it: the log says so, and once it listens again the instance
 * reads the keys again, so a revocation announced while nobody heard it applies then, not only at
 * the next 30 s read. The clock stands still, so that read never comes. vitest.config.ts includes
 * this file only when DATABASE_URL names a PostgreSQL server (the embedded store's listener is
 * PGlite's own and has no connection to lose).
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(() => database.dispose());

/** Whether the listener's connection has sent its LISTEN and had its answer. */
async function listening(): Promise<boolean> {
  const [row] = rowsOf<{ n: number }>(
    await database.database.db.execute(
      sql`select count(*)::int as n from pg_stat_activity
          where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()
            and state = 'idle' and query ilike 'listen %'`,
    ),
  );
  return row?.n === 1;
}

describe('the signing key listener, lost and back', () => {
  it('logs the loss, and once back reads the keys again: a revocation it did not hear applies', async () => {
    const clock = manualClock();
    const app = await buildTestApp(database.database.db, { clock });
    const log = { info: [] as string[], warn: [] as string[] };
    // Back 5 s after the loss: time for the revocation below to commit unheard.
    const listener = followKeyChanges(
      String(database.databaseUrl),
      app.keySchedule,
      { info: (message) => log.info.push(message), warn: (message) => log.warn.push(message) },
      { retryMs: [5_000] },
    );
    try {
      await vi.waitFor(async () => expect(await listening()).toBe(true), { timeout: 10_000 });
      const published = await publishedKids(app);
      const [leaked = ''] = published;

      await database.database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
            where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
      );
      await vi.waitFor(() => expect(log.warn).toHaveLength(1), { timeout: 5_000 });
      expect(log.warn[0]).toMatch(
        /^Signing key changes can no longer be heard \(.+\): another process's rotation or revocation applies here within 30 s until the listener is back$/,
      );
      await revokeKeys(
        { db: database.database.db, clock, signingKeys: signingKeySettings(testConfig()) },
        { kids: [leaked] },
      );
      // Not heard, and the clock has not moved: the instance still publishes what it read.
      expect(log.info).toEqual([]);
      expect(await publishedKids(app)).toEqual(published);

      await vi.waitFor(() => expect(log.info).toHaveLength(1), { timeout: 10_000 });
      expect(log.info).toEqual([
        'Signing key changes are heard again: rotations and revocations apply at once',
      ]);
      expect(await publishedKids(app)).not.toContain(leaked);
    } finally {
      await listener.close();
      await app.close();
    }
  });
});
