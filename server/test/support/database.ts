import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Database } from '../../src/store/database.ts';
import { migrateDatabase } from '../../src/store/migrate.ts';
import { openDatabase } from '../../src/store/open-database.ts';
import { administer, databaseUrlOn } from './postgres-admin.ts';

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
    const database = migrated ? await openMigratedPglite() : await openDatabase({ memory: true });
    return { database, kind: database.kind, dispose: () => database.close() };
  }
  const name = `keycard_t_${randomBytes(6).toString('hex')}`;
  const template = migrated ? postgresTemplate(serverUrl) : undefined;
  await createDatabase(serverUrl, name, template);
  const url = databaseUrlOn(serverUrl, name);
  const database = await openDatabase({ databaseUrl: url });
  try {
    if (migrated && !template) await migrateDatabase(database);
  } catch (error) {
    await database.close();
    await administer(serverUrl, `drop database if exists ${name} with (force)`);
    throw error;
  }
  return {
    database,
    kind: database.kind,
    databaseUrl: url,
    async dispose() {
      await database.close();
      await administer(serverUrl, `drop database if exists ${name} with (force)`);
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
