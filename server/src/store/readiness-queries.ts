import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from './database.ts';
import { MIGRATIONS_FOLDER } from './migrate.ts';
import { rowsOf } from './rows.ts';

/** The checks of GET /health/ready (http/readiness.ts) that ask the database. */

/** Resolves once the database answers a query at all. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

let newestMigration: number | undefined;

/**
 * drizzle-kit's journal of this build's migrations: `when` is the time each was generated, which the
 * migrator records as `created_at` of the row it writes once the migration is applied.
 */
function newestMigrationOfBuild(): number {
  if (newestMigration === undefined) {
    const journal = JSON.parse(
      readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
    ) as {
      entries: readonly { readonly when: number }[];
    };
    newestMigration = Math.max(...journal.entries.map((entry) => entry.when));
  }
  return newestMigration;
}

/** PostgreSQL's undefined_table: a database nothing was ever migrated on. */
const UNDEFINED_TABLE = '42P01';

function isUndefinedTable(error: unknown): boolean {
  for (let current = error; typeof current === 'object' && current !== null; current = current.cause) {
    if ('code' in current && current.code === UNDEFINED_TABLE) return true;
    if (!('cause' in current)) break;
  }
  return false;
}

/**
 * Whether every migration this build knows has been applied (drizzle's own record, the one migrate.ts
 * consults). A database further ahead counts as current: during a rolling upgrade the instances of the
 * older build keep serving on the newer schema, as the migrations are written to allow.
 */
export async function migrationsApplied(db: Db): Promise<boolean> {
  let newestApplied: unknown;
  try {
    const result = await db.execute(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`);
    newestApplied = rowsOf<{ newest: unknown }>(result)[0]?.newest;
  } catch (error) {
    if (isUndefinedTable(error)) return false;
    throw error;
  }
  return (
    newestApplied !== null && newestApplied !== undefined && Number(newestApplied) >= newestMigrationOfBuild()
  );
}
