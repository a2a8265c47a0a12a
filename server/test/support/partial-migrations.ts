import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../src/store/database.ts';
import { MIGRATIONS_FOLDER } from '../../src/store/migrate.ts';
import { drizzleOnPglite } from '../../src/store/open-database.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

/**
 * A copy of the migrations folder as it stood before migration `tag`: its journal ends one migration
 * earlier. The caller removes the folder.
 */
async function migrationsBefore(tag: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'keycard-migrations-'));
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  if (index < 1) throw new Error(`no migration ${tag} after the first`);
  journal.entries = journal.entries.slice(0, index);
  await writeFile(journalFile, JSON.stringify(journal));
  return folder;
}

/** Applies the migrations of `folder` as migrate.ts does, on either store. */
async function migrateWith(database: Database, folder: string): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(drizzleOnPglite(database.client), { migrationsFolder: folder });
  } else {
    await migratePostgres(drizzlePostgres({ client: database.client }), { migrationsFolder: folder });
  }
}

/**
 * A database of the test's store migrated up to, not including, migration `tag`, for the file's
 * tests: they write rows as an older release left them, then run migrateDatabase for the rest.
 */
export function useDatabaseMigratedBefore(tag: string): () => Database {
  let store: TestDatabase | undefined;
  beforeAll(async () => {
    store = await createTestDatabase({ migrated: false });
    const folder = await migrationsBefore(tag);
    try {
      await migrateWith(store.database, folder);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
  afterAll(async () => {
    await store?.dispose();
  });
  return () => {
    if (!store) throw new Error('the database is made before the first test');
    return store.database;
  };
}
