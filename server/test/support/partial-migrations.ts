import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from '../../src/store/database.ts';
import { MIGRATIONS_FOLDER } from '../../src/store/migrate.ts';
import { drizzleOnPglite } from '../../src/store/open-database.ts';

/**
 * A copy of the migrations folder as it stood before migration `tag`: its journal ends one migration
 * earlier, so a test can write rows as an older release left them and then migrate the rest. The
 * caller removes the folder.
 */
export async function migrationsBefore(tag: string): Promise<string> {
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
export async function migrateWith(database: Database, folder: string): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(drizzleOnPglite(database.client), { migrationsFolder: folder });
  } else {
    await migratePostgres(drizzlePostgres({ client: database.client }), { migrationsFolder: folder });
  }
}
