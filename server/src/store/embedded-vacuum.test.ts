import { afterEach, describe, expect, it } from 'vitest';
import { openMigratedPglite } from '../../test/support/database.ts';
import type { Database } from './database.ts';
import { startEmbeddedVacuum, vacuumEmbedded } from './embedded-vacuum.ts';
import type { PgliteQueries } from './pglite-client.ts';

/** The embedded client of a database opened on PGlite. */
function pgliteOf(database: Database): PgliteQueries {
  if (database.kind !== 'pglite') throw new Error('openMigratedPglite opened PostgreSQL');
  return database.client;
}

/** The heap's size in bytes of table `name`. */
async function heapBytes(db: PgliteQueries, name: string): Promise<number> {
  const { rows } = await db.query<{ bytes: number }>('select pg_relation_size($1)::int as bytes', [name]);
  return rows[0]?.bytes ?? Number.NaN;
}

describe('vacuum of the embedded database', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
  });

  it('makes the space of deleted rows usable again, which nothing else does in single-user PostgreSQL', async () => {
    const database = await openMigratedPglite();
    opened.push(database);
    const db = pgliteOf(database);
    await db.exec('create table churn (id int primary key, payload text)');
    // 2 000 rows written and deleted: without a vacuum every round takes new pages.
    const round = () =>
      db.exec(
        `insert into churn select g, repeat('x', 100) from generate_series(1, 2000) g; delete from churn`,
      );
    await round();
    await round();
    const afterTwo = await heapBytes(db, 'churn');
    await round();
    const afterThree = await heapBytes(db, 'churn');
    expect(afterThree).toBeGreaterThan(afterTwo);

    await vacuumEmbedded(db);
    await round();
    await round();

    expect(await heapBytes(db, 'churn')).toBeLessThanOrEqual(afterThree);
    const stats = await db.query<{ vacuumed: boolean; analysed: boolean }>(
      `select last_vacuum is not null as vacuumed, last_analyze is not null as analysed
       from pg_stat_user_tables where relname = 'churn'`,
    );
    expect(stats.rows).toEqual([{ vacuumed: true, analysed: true }]);
  });

  it("goes through every table of Keycard's schema, the migration journal's included", async () => {
    const database = await openMigratedPglite();
    opened.push(database);
    const client = pgliteOf(database);
    const { rows } = await client.query<{ count: number }>(
      `select count(*)::int as count from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
    );
    const tables = rows[0]?.count ?? 0;
    expect(tables).toBeGreaterThan(15);
    expect(await vacuumEmbedded(client)).toBe(tables);
    const { rows: journal } = await client.query<{ vacuumed: boolean }>(
      `select last_vacuum is not null as vacuumed from pg_stat_all_tables
       where schemaname = 'drizzle' and relname = '__drizzle_migrations'`,
    );
    expect(journal).toEqual([{ vacuumed: true }]);
  });

  it('starts no further table once the service stops', async () => {
    const vacuumed: string[] = [];
    const stopping = new AbortController();
    const client = {
      query: async <T>() => ({ rows: [{ name: 'public.one' }, { name: 'public.two' }] as T[], fields: [] }),
      exec: async (text: string) => {
        vacuumed.push(text);
        stopping.abort();
        return [];
      },
    } as unknown as PgliteQueries;
    expect(await vacuumEmbedded(client, stopping.signal)).toBe(1);
    expect(vacuumed).toEqual(['VACUUM (ANALYZE) public.one']);
  });

  it('runs at start and again every interval, logging only a failure', async () => {
    const statements: string[] = [];
    let failing = false;
    const client = {
      query: async <T>(text: string) => {
        statements.push(text.trim().split(/\s+/)[0] ?? '');
        if (failing) throw new Error('database closed');
        return { rows: [{ name: 'public.one' }] as T[], fields: [] };
      },
      exec: async (text: string) => {
        statements.push(text);
        return [];
      },
    };
    const lines: string[] = [];
    const log = {
      info: (line: string) => lines.push(`info ${line}`),
      error: (line: string) => lines.push(`error ${line}`),
    };
    const job = startEmbeddedVacuum(client, log, 20);
    try {
      await job.idle();
      expect(statements).toEqual(['select', 'VACUUM (ANALYZE) public.one']);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(statements.filter((text) => text.startsWith('VACUUM')).length).toBeGreaterThanOrEqual(2);
      expect(lines).toEqual([]);
      failing = true;
      await new Promise((resolve) => setTimeout(resolve, 50));
      await job.idle();
      expect(lines[0]).toBe('error embedded database: vacuum failed: database closed');
    } finally {
      job.stop();
    }
  });
});
