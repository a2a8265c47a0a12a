import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Database } from '../../src/store/database.ts';
import { migrateDatabase } from '../../src/store/migrate.ts';
import { openDatabase } from '../../src/store/open-database.ts';
import { administer, databaseUrlOn, dropDatabase, withPostgresClient } from './postgres-admin.ts';

/**
 * A migrated database with no rows for one test file: in-memory PGlite by default; with DATABASE_URL
 * set, a copy of the run's template on that PostgreSQL server (so the same tests run on both, STYLE
 * §6). Either is emptied and handed on to the worker's next file (takeMigratedPglite,
 * takeMigratedPostgres); an unmigrated one is the file's alone and closed or dropped afterwards.
 */
export interface TestDatabase {
  readonly database: Database;
  /** Which path this run exercises, for test names and assertions. */
  readonly kind: Database['kind'];
  /** The file's database's connection URL on the PostgreSQL path, e.g. to open a second pool. */
  readonly databaseUrl?: string;
  dispose(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** false: leave the database empty, for tests of the migration runner itself. */
  readonly migrated?: boolean;
  /** The PostgreSQL server to create the database on; unset means in-memory PGlite. */
  readonly serverUrl?: string | undefined;
}

export async function createTestDatabase({
  migrated = true,
  serverUrl = process.env.DATABASE_URL,
}: TestDatabaseOptions = {}): Promise<TestDatabase> {
  if (!serverUrl) {
    if (!migrated) {
      const database = await openDatabase({ memory: true });
      return { database, kind: database.kind, dispose: () => database.close() };
    }
    return takeMigratedPglite();
  }
  const template = migrated ? postgresTemplate(serverUrl) : undefined;
  if (template) return takeMigratedPostgres(serverUrl, template);
  const name = `keycard_t_${randomBytes(6).toString('hex')}`;
  await createDatabase(serverUrl, name, undefined);
  const url = databaseUrlOn(serverUrl, name);
  const database = await openDatabase({ databaseUrl: url });
  try {
    if (migrated) await migrateDatabase(database);
  } catch (error) {
    await database.close();
    await dropDatabase(serverUrl, name);
    throw error;
  }
  return {
    database,
    kind: database.kind,
    databaseUrl: url,
    async dispose() {
      await database.close();
      await dropDatabase(serverUrl, name);
    },
  };
}

/** The migrated PGlite of this run (global-setup.ts), read once per worker. */
let pgliteDump: Promise<Blob> | undefined;

/**
 * A migrated in-memory PGlite, whatever store the run is on (for tests of the embedded database
 * itself): a copy of the run's template, so it costs no initdb and no migration.
 */
export function openMigratedPglite(): Promise<Database> {
  pgliteDump ??= readFile(inject('pgliteTemplate')).then((bytes) => new Blob([bytes]));
  return pgliteDump.then((from) => openDatabase({ memory: true, from }));
}

/**
 * What makes a migrated database this run's schema: its tables, columns, indexes, constraints and
 * triggers, drizzle's record of the migrations applied, and its schemas and sequences. A test may change any of them (the health
 * checks remove a migration's record, for one); a database whose fingerprint is not the template's is
 * not handed on.
 */
const SCHEMA_FINGERPRINT = `select md5(concat_ws('|',
  (select string_agg(concat_ws(':', table_schema, table_name, column_name, data_type, is_nullable, column_default), ',' order by table_schema, table_name, column_name)
     from information_schema.columns where table_schema in ('public', 'drizzle')),
  (select string_agg(indexdef, ',' order by indexdef) from pg_indexes where schemaname in ('public', 'drizzle')),
  (select string_agg(concat_ws(':', c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid)), ',' order by c.conrelid::regclass::text, c.conname)
     from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname in ('public', 'drizzle')),
  (select string_agg(tgname, ',' order by tgname) from pg_trigger where not tgisinternal),
  (select string_agg(concat_ws(':', hash, created_at), ',' order by created_at, hash) from drizzle.__drizzle_migrations),
  (select string_agg(nspname, ',' order by nspname) from pg_namespace where nspname not like 'pg\\_%temp\\_%'),
  (select string_agg(sequencename, ',' order by sequencename) from pg_sequences)
)) as fingerprint`;

/** Longer than any statement a test leaves behind should take; a transaction left open never ends. */
const EMPTYING_TIMEOUT_MS = 10_000;

/** What both PGlite and a node-postgres client answer a statement with. */
interface Queryable {
  query(statement: string): Promise<{ rows: unknown[] }>;
}

async function fingerprintOf(client: Queryable): Promise<string> {
  const { rows } = await client.query(SCHEMA_FINGERPRINT);
  const [row] = rows as { fingerprint: string }[];
  if (!row) throw new Error('no schema fingerprint');
  return row.fingerprint;
}

/** The template's fingerprint, read off the worker's first freshly loaded database of each kind. */
let templateFingerprint: Promise<string> | undefined;
let postgresTemplateFingerprint: Promise<string> | undefined;

/** Rejects once emptying a database took EMPTYING_TIMEOUT_MS. */
async function inEmptyingTime(emptying: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('not emptied in time')), EMPTYING_TIMEOUT_MS);
  });
  try {
    await Promise.race([emptying, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Truncates every table of the public schema, identities restarting at 1. */
async function truncateAll(client: Queryable): Promise<void> {
  const tables = await client.query(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public'`,
  );
  const names = (tables.rows as { name: string }[]).map((row) => row.name).join(', ');
  if (names !== '') await client.query(`truncate ${names} restart identity cascade`);
}

/**
 * The worker's migrated PGlite between two test files (a worker runs its files one after another):
 * emptied and handed to the next file instead of a new copy of the template, whose load costs
 * about 1.2 core-seconds (its data directory is 41 MB): two thirds of the server project's 125
 * loads a run. One that a test closed, whose schema it changed or that does not empty in time is
 * closed instead, and the next file gets a fresh copy.
 */
let spare: Database | undefined;

/**
 * The LISTENs made on each handed-out database, ended when it comes back: PGlite's unlisten of a
 * whole channel sends UNLISTEN but keeps the callbacks, which would keep a closed app's caches alive
 * and call them on the next file's notifications.
 */
const listening = new WeakMap<PGlite, (() => Promise<void>)[]>();

function recordListens(client: PGlite): void {
  if (listening.has(client)) return;
  listening.set(client, []);
  const listen = client.listen.bind(client);
  client.listen = async (...args: Parameters<PGlite['listen']>) => {
    const end = await listen(...args);
    listening.get(client)?.push(() => end());
    return end;
  };
}

/** Date as this module found it, before any test could fake it (vi.useFakeTimers replaces the global). */
const REAL_DATE = globalThis.Date;

/**
 * The databases that ran a statement while a test had faked Date. PGlite reads the process's clock,
 * so its PostgreSQL saw time jump (days ahead, then back) and keeps timeouts armed by the faked
 * clock: one armed 30 days ahead is more than Node's timers can wait, which makes it fire every
 * millisecond while the database is idle. Such a database is closed instead of handed on.
 */
const sawFakedClock = new WeakSet<PGlite>();

function watchClock(client: PGlite): void {
  for (const method of ['query', 'exec', 'transaction'] as const) {
    const run = client[method].bind(client) as (...args: unknown[]) => unknown;
    Object.assign(client, {
      [method]: (...args: unknown[]) => {
        if (globalThis.Date !== REAL_DATE) sawFakedClock.add(client);
        return run(...args);
      },
    });
  }
}

/** The in-memory PGlite under a migrated test database (openMigratedPglite makes no other). */
function pgliteOf(database: Database): PGlite {
  if (!(database.client instanceof PGlite)) throw new Error('expected an in-memory PGlite');
  return database.client;
}

async function takeMigratedPglite(): Promise<TestDatabase> {
  const reused = spare;
  spare = undefined;
  const database = reused && !pgliteOf(reused).closed ? reused : await openMigratedPglite();
  const client = pgliteOf(database);
  templateFingerprint ??= fingerprintOf(client);
  await templateFingerprint;
  // Once per client: a handed-on one is already watched.
  if (!listening.has(client)) {
    watchClock(client);
    recordListens(client);
  }
  let given = false;
  return {
    database,
    kind: database.kind,
    dispose: async () => {
      // Once only: a second dispose must not empty or close what another file now uses.
      if (given) return;
      given = true;
      await giveBack(database);
    },
  };
}

/** Every row of every table goes, identities start again at 1: the database is as the template left it. */
async function empty(client: PGlite): Promise<void> {
  for (const end of listening.get(client)?.splice(0) ?? []) await end();
  // A transaction begun by a bare BEGIN holds no lock of PGlite's: it would take the truncation in.
  await client.exec('rollback');
  await truncateAll(client);
  if ((await fingerprintOf(client)) !== (await templateFingerprint)) {
    throw new Error('schema changed');
  }
}

async function giveBack(database: Database): Promise<void> {
  const client = pgliteOf(database);
  if (spare || client.closed || sawFakedClock.has(client)) return closeQuietly(client);
  try {
    await inEmptyingTime(empty(client));
    if (spare) await closeQuietly(client);
    else spare = database;
  } catch {
    // A transaction left open holds PGlite: closing would wait on it too, so it is left to go.
    if (!client.closed) void closeQuietly(client);
  }
}

async function closeQuietly(client: PGlite): Promise<void> {
  await client.close().catch(() => undefined);
}

/**
 * The worker's emptied PostgreSQL database between two test files, by name: handed to the next file
 * as on PGlite. `create database … template` and `drop database` took 170 and 80 ms a file (35 of
 * the PostgreSQL pass's 175 worker-seconds in the server project); emptying takes a few ms. One that
 * is still connected to once its file closed its pool, whose schema changed or that does not empty in
 * time is dropped instead, and the next file gets a fresh copy.
 */
let sparePostgres: string | undefined;

async function takeMigratedPostgres(serverUrl: string, template: string): Promise<TestDatabase> {
  let name = sparePostgres;
  sparePostgres = undefined;
  if (!name) {
    // Named after the template, so the run's teardown drops the copies its workers still kept.
    name = `${template}_copy_${randomBytes(6).toString('hex')}`;
    await createDatabase(serverUrl, name, template);
  }
  const url = databaseUrlOn(serverUrl, name);
  let database: Database;
  try {
    // The first database of a worker is always a fresh copy: its fingerprint is the template's.
    postgresTemplateFingerprint ??= withPostgresClient(url, fingerprintOf).catch((error: unknown) => {
      postgresTemplateFingerprint = undefined;
      throw error;
    });
    await postgresTemplateFingerprint;
    database = await openDatabase({ databaseUrl: url });
  } catch (error) {
    await dropDatabase(serverUrl, name);
    throw error;
  }
  const taken = name;
  let given = false;
  return {
    database,
    kind: database.kind,
    databaseUrl: url,
    dispose: async () => {
      // Once only: a second dispose must not empty or drop what another file now uses.
      if (given) return;
      given = true;
      await database.close();
      await giveBackPostgres(serverUrl, taken);
    },
  };
}

/** Client sessions on the database other than the asking one's (not autovacuum's, which come and go). */
async function otherSessions(client: pg.Client, name: string): Promise<number> {
  const { rows } = await client.query<{ others: number }>(
    `select count(*)::int as others from pg_stat_activity
      where datname = $1 and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    [name],
  );
  return rows[0]?.others ?? 0;
}

/** How long a closed pool's sessions may take to leave the server's list. */
const SESSIONS_GONE_MS = 2_000;

/**
 * Nothing of the file may still be connected (a session left open could write after the truncation
 * or hold a lock, LISTEN, or an advisory lock); then every row goes, and the schema must be the
 * template's, checked again for a session that came meanwhile.
 */
async function emptyPostgres(client: pg.Client, name: string): Promise<void> {
  const since = Date.now();
  while ((await otherSessions(client, name)) > 0) {
    if (Date.now() - since > SESSIONS_GONE_MS) throw new Error('still connected to');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await truncateAll(client);
  if ((await fingerprintOf(client)) !== (await postgresTemplateFingerprint))
    throw new Error('schema changed');
  if ((await otherSessions(client, name)) > 0) throw new Error('connected to while emptied');
}

async function giveBackPostgres(serverUrl: string, name: string): Promise<void> {
  if (sparePostgres) return dropDatabase(serverUrl, name);
  try {
    await inEmptyingTime(
      withPostgresClient(databaseUrlOn(serverUrl, name), (client) => emptyPostgres(client, name)),
    );
    if (sparePostgres) await dropDatabase(serverUrl, name);
    else sparePostgres = name;
  } catch {
    await dropDatabase(serverUrl, name);
  }
}

/**
 * The run's migrated template on the server the run's own DATABASE_URL names; a test that points at
 * another server (or runs outside the test runner's set-up) migrates its database itself.
 */
function postgresTemplate(serverUrl: string): string | undefined {
  return serverUrl === process.env.DATABASE_URL ? inject('postgresTemplate') : undefined;
}

/** Copies the template; PostgreSQL refuses to copy a template that another session is using, so that is retried. */
async function createDatabase(serverUrl: string, name: string, template: string | undefined): Promise<void> {
  const statement = template ? `create database ${name} template ${template}` : `create database ${name}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await administer(serverUrl, statement);
      return;
    } catch (error) {
      const busy = error instanceof Error && /is being accessed by other users/.test(error.message);
      if (!busy || attempt === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/**
 * Registers beforeAll/afterAll for a test file and returns an accessor for its database:
 * `const testDb = useTestDatabase();` then `testDb().db` inside tests.
 */
export function useTestDatabase(): () => Database {
  let current: TestDatabase | undefined;
  beforeAll(async () => {
    current = await createTestDatabase();
  });
  afterAll(async () => {
    await current?.dispose();
  });
  return () => {
    if (!current) throw new Error('the test database is only available inside tests and hooks');
    return current.database;
  };
}
