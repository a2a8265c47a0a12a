import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, useTestDatabase } from '../../test/support/database.ts';
import { MIGRATIONS_FOLDER, migrateDatabase } from './migrate.ts';
import { closeToOthers, openDatabase, pgliteDirectory } from './open-database.ts';
import { getOrCreateSecret } from './secrets.ts';

const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
  entries: unknown[];
};
const testDb = useTestDatabase();

/** Both drivers answer raw queries as `{ rows }`. */
function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

async function appliedMigrations(): Promise<number> {
  const result = await testDb().db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return rowsOf<{ n: number }>(result)[0]?.n ?? -1;
}

describe(`migrations (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('apply every generated migration and create the secret table', async () => {
    expect(testDb().kind).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    expect(await appliedMigrations()).toBe(journal.entries.length);
    const columns = rowsOf<{ column_name: string }>(
      await testDb().db.execute(
        sql`select column_name from information_schema.columns where table_name = 'secret' order by column_name`,
      ),
    );
    expect(columns.map((c) => c.column_name)).toEqual(['created_at', 'name', 'value']);
  });

  it('apply nothing twice when run again', async () => {
    await migrateDatabase(testDb());
    expect(await appliedMigrations()).toBe(journal.entries.length);
  });
});

describe('secret store', () => {
  it('creates a secret once and returns the stored value afterwards', async () => {
    const first = await getOrCreateSecret(testDb().db, 'round-trip');
    expect(first).toMatch(/^[\w-]{43}$/);
    expect(await getOrCreateSecret(testDb().db, 'round-trip', () => 'never used')).toBe(first);
    expect(await getOrCreateSecret(testDb().db, 'another')).not.toBe(first);
  });

  it('hands every concurrent caller the one value that won', async () => {
    let n = 0;
    const values = await Promise.all(
      Array.from({ length: 8 }, () => getOrCreateSecret(testDb().db, 'race', () => `candidate-${n++}`)),
    );
    expect(new Set(values).size).toBe(1);
  });
});

describe('embedded PGlite in a directory', () => {
  it("keeps migrated data across close and reopen, in a directory only the service's user may enter", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'keycard-pglite-'));
    try {
      const first = await openDatabase({ pgliteDir: pgliteDirectory(dataDir) });
      await migrateDatabase(first);
      const stored = await getOrCreateSecret(first.db, 'cookie');
      await first.close();
      // PGlite makes its files readable and writable by all: only the directory keeps others out.
      expect((await stat(pgliteDirectory(dataDir))).mode & 0o777).toBe(0o700);
      // A directory made open before this rule is closed at the next start.
      await chmod(pgliteDirectory(dataDir), 0o755);
      const second = await openDatabase({ pgliteDir: pgliteDirectory(dataDir) });
      await migrateDatabase(second);
      expect(await getOrCreateSecret(second.db, 'cookie')).toBe(stored);
      await second.close();
      expect((await stat(pgliteDirectory(dataDir))).mode & 0o777).toBe(0o700);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('an embedded database directory of another user', () => {
  it('stops the start naming the directory and what to do, rather than leave it open to all', async () => {
    // As root, which may change any mode, only a stand-in shows the refusal another user's directory gives.
    const refused = async () => {
      throw Object.assign(new Error('EPERM: operation not permitted, chmod'), { code: 'EPERM' });
    };
    const failing = async () => {
      throw Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT' });
    };
    await expect(closeToOthers('/srv/keycard/data/pglite', refused)).rejects.toThrow(
      "The embedded database's directory /srv/keycard/data/pglite belongs to another user",
    );
    await expect(closeToOthers('/srv/keycard/data/pglite', refused)).rejects.toThrow(/chown -R/);
    await expect(closeToOthers('/srv/keycard/data/pglite', failing)).rejects.toThrow(/^ENOENT/);
  });
});

// Several instances against one PostgreSQL is the scale-out setup of DESIGN §1; PGlite is
// single-process by construction (main.ts holds a lock), so this runs on the PostgreSQL pass only.
if (process.env.DATABASE_URL) {
  describe('migrations on a shared PostgreSQL', () => {
    it('succeed once for instances starting at the same time', async () => {
      const fresh = await createTestDatabase({ migrated: false });
      try {
        const second = await openDatabase({ databaseUrl: String(fresh.databaseUrl) });
        const results = await Promise.allSettled([migrateDatabase(fresh.database), migrateDatabase(second)]);
        await second.close();
        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      } finally {
        await fresh.dispose();
      }
    });
  });
}
