import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { tracingOn } from '../tracing/spans.ts';
import type { Database } from './database.ts';
import { tracePgliteQueries } from './pglite-spans.ts';

export type DatabaseLocation =
  /** PostgreSQL ≥ 15 (DATABASE_URL). */
  | { readonly databaseUrl: string }
  /** Embedded PGlite kept in this directory (DATA_DIR/pglite). Only one process may open it. */
  | { readonly pgliteDir: string }
  /** Embedded PGlite in memory, for tests; `from` is a data directory dumped earlier (a template). */
  | { readonly memory: true; readonly from?: Blob };

/** Where the embedded database lives inside DATA_DIR, beside the lock file and development keys. */
export function pgliteDirectory(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/** Opens the database; the caller applies migrations (migrate.ts) before serving. */
export async function openDatabase(location: DatabaseLocation): Promise<Database> {
  if ('databaseUrl' in location) return openPostgres(location.databaseUrl);
  if ('pgliteDir' in location) await mkdir(location.pgliteDir, { recursive: true });
  const client =
    'pgliteDir' in location
      ? await PGlite.create(location.pgliteDir)
      : await PGlite.create(location.from ? { loadDataDir: location.from } : {});
  if (tracingOn()) tracePgliteQueries(client);
  return { kind: 'pglite', client, db: drizzlePglite({ client }), close: () => client.close() };
}

function openPostgres(connectionString: string): Database {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    // A request must not hang on a database that is gone; it answers 503 instead (DESIGN §2).
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server (restart, failover) emits here; without a listener the process
  // would crash. The next query reconnects or fails with an error the HTTP layer turns into 503.
  pool.on('error', () => {});
  return { kind: 'postgres', client: pool, db: drizzlePostgres({ client: pool }), close: () => pool.end() };
}
