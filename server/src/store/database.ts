import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Pool } from 'pg';
import type { PgliteClient } from './pglite-client.ts';

/**
 * A drizzle database (or a transaction on it) that runs the same on PGlite and PostgreSQL.
 * Repositories take this, so one SQL code path serves both (STYLE §6).
 */
export type Db = PgDatabase<PgQueryResultHKT>;

/**
 * The open database of the process: PGlite embedded in DATA_DIR (in a thread of its own) or in memory
 * (in process, for tests), or a PostgreSQL pool.
 */
export type Database = {
  readonly db: Db;
  /** Closes the pool or the embedded database; the handle is unusable afterwards. */
  close(): Promise<void>;
} & (
  | { readonly kind: 'pglite'; readonly client: PgliteClient }
  | { readonly kind: 'postgres'; readonly client: Pool }
);
