import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../src/store/database.ts';
import { migrateDatabase } from '../../src/store/migrate.ts';
import { openDatabase } from '../../src/store/open-database.ts';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default; with DATABASE_URL set,
 * a temporary database created on that PostgreSQL server (so the same tests run on both, STYLE §6)
 * and dropped afterwards.
 */
export interface TestDatabase {
  readonly database: Database;
  /** Which path this run exercises, for test names and assertions. */
  readonly kind: Database['kind'];
  /** The temporary database's connection URL on the PostgreSQL path, e.g. to open a second pool. */
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
    const database = await openDatabase({ memory: true });
    if (migrated) await migrateDatabase(database);
    return { database, kind: database.kind, dispose: () => database.close() };
  }
  const name = `keycard_t_${randomBytes(6).toString('hex')}`;
  await administer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.href });
  try {
    if (migrated) await migrateDatabase(database);
  } catch (error) {
    await database.close();
    await administer(serverUrl, `drop database if exists ${name} with (force)`);
    throw error;
  }
  return {
    database,
    kind: database.kind,
    databaseUrl: url.href,
    async dispose() {
      await database.close();
      await administer(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** Runs one statement on the server's own database; CREATE/DROP DATABASE cannot run in a pool transaction. */
async function administer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
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
