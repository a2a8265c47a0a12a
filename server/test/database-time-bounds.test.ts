import { errorBodySchema } from '@keycard/contract';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadiness } from '../src/http/readiness.ts';
import { deleteInBatches } from '../src/store/batched-delete.ts';
import type { Database, Db } from '../src/store/database.ts';
import { migrateDatabase } from '../src/store/migrate.ts';
import { openDatabase } from '../src/store/open-database.ts';
import { rowsOf } from '../src/store/rows.ts';
import { auditEvents } from '../src/store/tables/index.ts';
import { isDatabaseTimeout, isDatabaseUnavailable } from '../src/store/unavailable.ts';
import { attemptSignIn } from './admin-api-kit.ts';
import { runAdmin } from './admin-harness.ts';
import { apiClient } from './recovery-kit.ts';
import { buildTestApp } from './support/app.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import {
  authorizationRequest,
  createAccount,
  registerTestClient,
  type TestBrowser,
} from './support/oidc-flow.ts';
import { holdTransaction } from './support/open-transaction.ts';
import { withPostgresClient } from './support/postgres-admin.ts';

/**
 * The time bounds PostgreSQL puts on each of the service's statements (POSTGRES_TIME_BOUNDS in
 * store/open-database.ts): how long one may wait for a lock, how long one may run, how long a
 * transaction may sit idle. vitest.config.ts includes this file only when DATABASE_URL names a
 * PostgreSQL server (PGlite runs one statement at a time and has no such settings). The behaviour
 * past a bound is PostgreSQL's own and is crossed here with a bound set short through the URL's
 * query; the service's own numbers are read back from the server.
 */

let file: TestDatabase;
beforeAll(async () => {
  file = await createTestDatabase();
});
afterAll(async () => {
  await file?.dispose();
});

/** The file's database's URL with `bounds` in its query, as an operator would write DATABASE_URL. */
function urlWith(bounds: Record<string, string>): string {
  const url = new URL(String(file.databaseUrl));
  for (const [name, value] of Object.entries(bounds)) url.searchParams.set(name, value);
  return url.href;
}

/** A pool of the service's on `url`, closed after `use`. */
async function withPool<T>(url: string, use: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase({ databaseUrl: url });
  try {
    return await use(database);
  } finally {
    await database.close();
  }
}

async function settingOf(database: Database, name: string): Promise<string> {
  const [row] = rowsOf<{ setting: string }>(
    await database.db.execute(sql`select current_setting(${name}) as setting`),
  );
  return String(row?.setting);
}

/**
 * A transaction of another session that took `lock` and keeps it until `release()`: another
 * instance's stuck transaction, or an administrator's.
 */
async function holdLock(db: Db, lock: SQL): Promise<{ release(): Promise<void> }> {
  const transaction = holdTransaction(db, async (tx) => {
    await tx.execute(lock);
  });
  await transaction.held;
  return {
    async release() {
      transaction.release();
      await transaction.done;
    },
  };
}

/** The failure `running` ends with. */
async function failureOf(running: Promise<unknown>): Promise<unknown> {
  return running.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

const PASSWORD = 'Correct-Horse-9!x';

/** Follows `path`'s redirects within the service; answers where they end: the client's callback or a page. */
async function followToEnd(browser: TestBrowser, path: string): Promise<string> {
  let location = path;
  for (let hop = 0; hop < 5; hop++) {
    const response = await browser.get(location);
    if (response.statusCode < 300 || response.statusCode >= 400) return location;
    location = String(response.headers.location);
    if (!location.startsWith('/oidc/')) return location;
  }
  throw new Error(`still redirected after 5 hops, at ${location}`);
}

describe("the service's bounds (PostgreSQL)", () => {
  it('waits 5 s for a lock, runs a statement 15 s, and leaves a transaction idle 1 minute', async () => {
    await withPool(String(file.databaseUrl), async (database) => {
      expect(await settingOf(database, 'lock_timeout')).toBe('5s');
      expect(await settingOf(database, 'statement_timeout')).toBe('15s');
      expect(await settingOf(database, 'idle_in_transaction_session_timeout')).toBe('1min');
    });
  });

  it("takes DATABASE_URL's own values instead, 0 meaning none", async () => {
    await withPool(urlWith({ lock_timeout: '250', statement_timeout: '0' }), async (database) => {
      expect(await settingOf(database, 'lock_timeout')).toBe('250ms');
      expect(await settingOf(database, 'statement_timeout')).toBe('0');
      expect(await settingOf(database, 'idle_in_transaction_session_timeout')).toBe('1min');
    });
  });
});

describe('past a bound', () => {
  it('a request waiting for a lock longer than the bound answers 503 with Retry-After, and the next one is served', async () => {
    const email = 'held.row@example.com';
    await withPool(urlWith({ lock_timeout: '200' }), async (database) => {
      const app = await buildTestApp(database.db);
      try {
        const client = await apiClient(app);
        // CheckUsername looks the address's domain up among the organisations' (DESIGN §2 Federation).
        const lock = await holdLock(
          file.database.db,
          sql`lock table upstream_domain in access exclusive mode`,
        );
        let waited: Awaited<ReturnType<typeof client.post>>;
        try {
          waited = await client.post('/api/CheckUsername', { Username: email, ReturnUrl: null });
        } finally {
          await lock.release();
        }
        expect(waited.statusCode).toBe(503);
        expect(waited.headers['retry-after']).toBe('5');
        expect(errorBodySchema.parse(waited.json()).code).toBe('service_unavailable');
        const next = await client.post('/api/CheckUsername', { Username: email, ReturnUrl: null });
        expect(next.statusCode).toBe(200);
        expect(next.json()).toMatchObject({ userHasExternalIdentityProvider: false });
      } finally {
        await app.close();
      }
    });
  });

  it('a statement running longer than the bound fails as the database not answering in time', async () => {
    await withPool(urlWith({ statement_timeout: '100' }), async (database) => {
      const error = await failureOf(database.db.execute(sql`select pg_sleep(2)`));
      expect(error).toMatchObject({ cause: { code: '57014' } });
      expect(isDatabaseTimeout(error)).toBe(true);
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(await settingOf(database, 'statement_timeout')).toBe('100ms');
    });
  });

  it('a transaction idle longer than the bound is ended with its connection, and the pool serves on', async () => {
    await withPool(urlWith({ idle_in_transaction_session_timeout: '100' }), async (database) => {
      const error = await failureOf(
        database.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          await new Promise((resolve) => setTimeout(resolve, 600));
          await tx.execute(sql`select 1`);
        }),
      );
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(await settingOf(database, 'idle_in_transaction_session_timeout')).toBe('100ms');
    });
  });

  it('a resume whose re-check of the account waits past the bound signs nobody in: its session and grant go, the person sees the outage page', async () => {
    const email = 'resume.held@example.com';
    const { db: fileDb } = file.database;
    await registerTestClient(fileDb);
    const account = await createAccount(fileDb, email, PASSWORD);
    await withPool(urlWith({ lock_timeout: '200' }), async (database) => {
      const app = await buildTestApp(database.db);
      try {
        const { browser, auth, body } = await attemptSignIn(app, email, PASSWORD);
        expect(body).toMatchObject({ isAuthenticated: true });
        // A transaction that keeps the account's row (a reset, a disable, stuck): the resume's
        // second read of the account (FOR SHARE, after its session is written) waits for it.
        const lock = await holdLock(
          file.database.db,
          sql`select 1 from account where id = ${account.id} for no key update`,
        );
        let resumed: string;
        try {
          resumed = await followToEnd(browser, auth.returnUrl);
        } finally {
          await lock.release();
        }
        expect(resumed).toMatch(/^\/error\/[0-9A-Z]{8}\?reason=unavailable$/);
        const [left] = rowsOf<{ sessions: number; grants: number }>(
          await fileDb.execute(
            sql`select count(*) filter (where type = 'Session')::int as sessions,
                       count(*) filter (where type in ('Grant', 'AuthorizationCode'))::int as grants
                from oidc_payload where payload->>'accountId' = ${account.id}`,
          ),
        );
        expect(left).toEqual({ sessions: 0, grants: 0 });
        // Signed in nowhere: the next authorization asks for the sign-in again.
        const again = await browser.get(authorizationRequest().path);
        expect(String(again.headers.location)).toMatch(/^\/\?ReturnUrl=/);
      } finally {
        await app.close();
      }
    });
  });

  it("the clean-up's batches are not bound by statement_timeout: one reading on to a large table's end may take longer", async () => {
    await file.database.db.insert(auditEvents).values({ event: 'bounded-clean-up', outcome: 'success' });
    await withPool(urlWith({ statement_timeout: '100' }), async (database) => {
      // 0.3 s each time the condition is judged: in the batch's search and again as it deletes.
      const slow = sql`(select true from pg_sleep(0.3)) and ${auditEvents.event} = 'bounded-clean-up'`;
      expect(await deleteInBatches(database.db, auditEvents, slow)).toBe(1);
      // The bound is the transaction's own (SET LOCAL): the pool's connections keep theirs.
      expect(await settingOf(database, 'statement_timeout')).toBe('100ms');
      const error = await failureOf(database.db.execute(sql`select pg_sleep(0.3)`));
      expect(isDatabaseTimeout(error)).toBe(true);
    });
  });

  it('a readiness check stopped by a bound fails as timed out, not as unreachable', async () => {
    await withPool(urlWith({ lock_timeout: '200' }), async (database) => {
      // Its own wait is longer than the bound: what it reports is the database's answer.
      const readiness = createReadiness({
        db: database.db,
        mailWorkerRunning: () => true,
        log: { info: () => {}, warn: () => {} },
        timeoutMs: 10_000,
      });
      const lock = await holdLock(
        file.database.db,
        sql`lock table drizzle.__drizzle_migrations in access exclusive mode`,
      );
      try {
        expect((await readiness.check()).checks).toMatchObject({
          database: { status: 'pass' },
          migrations: { status: 'fail', reason: 'timed_out' },
        });
      } finally {
        await lock.release();
      }
    });
  });

  it('the admin CLI says the database did not answer in time, not that it cannot be reached', async () => {
    const email = 'cli.held@example.com';
    await createAccount(file.database.db, email, PASSWORD);
    await withPool(urlWith({ lock_timeout: '200' }), async (database) => {
      const lock = await holdLock(file.database.db, sql`lock table account in access exclusive mode`);
      try {
        const run = await runAdmin(['user:disable', '--email', email], { db: database.db });
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(/^admin: the database did not answer in time, try again: .*lock timeout/);
      } finally {
        await lock.release();
      }
    });
    // Where nothing listens, it says so.
    await withPool('postgres://keycard@127.0.0.1:1/keycard', async (database) => {
      const run = await runAdmin(['user:disable', '--email', email], { db: database.db });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^admin: cannot reach the database: /);
    });
  });
});

describe('migrations', () => {
  it("wait for another instance's migrations past the bounds, and leave the pool's connections bounded", async () => {
    const empty = await createTestDatabase({ migrated: false });
    try {
      const url = new URL(String(empty.databaseUrl));
      url.searchParams.set('lock_timeout', '100');
      url.searchParams.set('statement_timeout', '100');
      // Another instance migrating: it holds the migration lock (migrate.ts) for longer than both bounds.
      const other = await holdLock(empty.database.db, sql`select pg_advisory_xact_lock(4242017001)`);
      await withPool(url.href, async (database) => {
        let settled = false;
        const migrating = migrateDatabase(database).finally(() => {
          settled = true;
        });
        migrating.catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 400));
        expect(settled).toBe(false);
        await other.release();
        await migrating;
        // Its connection is back in the pool, bounded again, and the migration lock is free for the
        // next instance to start.
        if (database.kind !== 'postgres') throw new Error('a PostgreSQL database was expected');
        expect(database.client.totalCount).toBe(1);
        const next = await withPostgresClient(String(empty.databaseUrl), (client) =>
          client.query<{ free: boolean }>('select pg_try_advisory_lock(4242017001) as free'),
        );
        expect(next.rows[0]?.free).toBe(true);
        const [applied] = rowsOf<{ n: number }>(
          await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
        );
        expect(applied?.n).toBeGreaterThan(0);
        expect(await settingOf(database, 'lock_timeout')).toBe('100ms');
        expect(await settingOf(database, 'statement_timeout')).toBe('100ms');
      });
    } finally {
      await empty.dispose();
    }
  });
});
