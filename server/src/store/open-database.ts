import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite, type PgliteDatabase } from 'drizzle-orm/pglite';
import pg from 'pg';
import { tracingOn } from '../tracing/spans.ts';
import type { Database } from './database.ts';
import type { PgliteClient } from './pglite-client.ts';
import { tracePgliteQueries } from './pglite-spans.ts';
import { PgliteThread } from './pglite-thread-client.ts';
import { POSTGRES_TIME_BOUNDS } from './postgres-time-bounds.ts';

export type DatabaseLocation =
  /** PostgreSQL ≥ 15 (DATABASE_URL). */
  | { readonly databaseUrl: string }
  /**
   * Embedded PGlite kept in this directory (DATA_DIR/pglite), run in a worker thread so that its
   * statements never block the service's event loop. Only one process may open it.
   */
  | { readonly pgliteDir: string }
  /**
   * Embedded PGlite in memory, in this thread, for tests; `from` is a data directory dumped earlier
   * (a template).
   */
  | { readonly memory: true; readonly from?: Blob };

/** Where the embedded database lives inside DATA_DIR, beside the lock file and development keys. */
export function pgliteDirectory(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/**
 * PostgreSQL's settings for the embedded database, after PGlite's own. shared_buffers is 128 MB by
 * default, all of it resident once PostgreSQL starts; Keycard's working set (accounts, sessions,
 * tokens) is far smaller, and a page that does not fit is read from the data directory through the
 * operating system's cache (BENCHMARKS.md: no measurable cost per statement).
 */
export const PGLITE_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=16MB',
];

/**
 * drizzle over the embedded database. drizzle's driver names PGlite as its client's type but calls
 * only `query` and `transaction`, which PgliteClient has with the same signatures.
 */
export function drizzleOnPglite(client: PgliteClient): PgliteDatabase {
  return drizzlePglite({ client: client as PGlite });
}

/**
 * Only the service's own user may enter the embedded database's directory. PGlite creates its files
 * readable and writable by everyone (0666), and DATA_DIR is often made under a umask that leaves it
 * open to every local account: through the files, anyone on the host could read password hashes,
 * client secrets, signing keys and live links, or write a password hash of their own. PostgreSQL's
 * own data directory is 0700 for the same reason. An existing directory is closed too, so a data
 * directory made before this rule gets it at the next start.
 */
export const PGLITE_DIRECTORY_MODE = 0o700;

/**
 * Sets PGLITE_DIRECTORY_MODE on the embedded database's directory. One of another user cannot be
 * changed (EPERM): the start stops naming it and what to do, rather than leave it open to all.
 * `change` is chmod, or a test's stand-in for a refusal only another user's directory gives.
 */
export async function closeToOthers(directory: string, change: typeof chmod = chmod): Promise<void> {
  await change(directory, PGLITE_DIRECTORY_MODE).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPERM') throw error;
    throw new Error(
      `The embedded database's directory ${directory} belongs to another user, so it cannot be ` +
        'closed to everyone else (mode 0700): give it to the user the service runs as (chown -R), ' +
        'or choose another DATA_DIR.',
      { cause: error },
    );
  });
}

async function openPglite(
  location: Exclude<DatabaseLocation, { databaseUrl: string }>,
): Promise<PgliteClient> {
  const startParams = [...PGLITE_START_PARAMS];
  if ('memory' in location) {
    return PGlite.create(location.from ? { loadDataDir: location.from, startParams } : { startParams });
  }
  await mkdir(location.pgliteDir, { recursive: true, mode: PGLITE_DIRECTORY_MODE });
  await closeToOthers(location.pgliteDir);
  return PgliteThread.open({ dataDir: location.pgliteDir, startParams });
}

/** Opens the database; the caller applies migrations (migrate.ts) before serving. */
export async function openDatabase(location: DatabaseLocation): Promise<Database> {
  if ('databaseUrl' in location) return openPostgres(location.databaseUrl);
  const client = await openPglite(location);
  if (tracingOn()) tracePgliteQueries(client);
  return { kind: 'pglite', client, db: drizzleOnPglite(client), close: () => client.close() };
}

function openPostgres(connectionString: string): Database {
  const pool = new pg.Pool({
    // The URL's parameters are read after these (node-postgres), so an operator's values win.
    ...POSTGRES_TIME_BOUNDS,
    connectionString,
    max: 10,
    // A request must not hang on a database that is gone; it answers 503 instead (DESIGN §2).
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server (restart, failover) emits here; without a listener the process
  // would crash. The next query reconnects or fails with an error the HTTP layer turns into 503.
  // reportLostConnections logs it once the service has its log.
  pool.on('error', () => {});
  // The pool listens only to its idle connections: one in use (a transaction between two of its
  // statements) that its server closes would emit its error to nobody, which crashes the process.
  // Passed on to the pool's own listeners instead (reportLostConnections logs it); the transaction's
  // next statement fails (503), and the pool drops the connection when it is given back.
  const inUse = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => inUse.add(client));
  pool.on('release', (_error, client) => inUse.delete(client));
  pool.on('connect', (client) =>
    client.on('error', (error) => {
      // Once: the server's message comes first, the connection's end after it.
      if (inUse.delete(client)) pool.emit('error', error, client);
    }),
  );
  return { kind: 'postgres', client: pool, db: drizzlePostgres({ client: pool }), close: () => pool.end() };
}

/**
 * Logs each pooled connection that PostgreSQL closed (a restart, a failover, an administrator ending
 * it, an idle_in_transaction_session_timeout), idle or held by a transaction: the pool drops it and
 * opens a new one when needed (a statement that got the connection before the pool heard of it
 * fails, and its request answers 503), so the service goes on, but without this line an operator
 * would see nothing at the moment the database went away, nor why a transaction failed.
 */
export function reportLostConnections(
  pool: pg.Pool,
  log: { warn(details: { err: Error }, message: string): void },
): void {
  pool.on('error', (error) =>
    log.warn(
      { err: error },
      'A PostgreSQL connection of the pool was closed by the server: the pool opens a new one when needed',
    ),
  );
}
