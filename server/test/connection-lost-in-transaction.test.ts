import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, reportLostConnections } from '../src/store/open-database.ts';
import { rowsOf } from '../src/store/rows.ts';
import { isDatabaseUnavailable } from '../src/store/unavailable.ts';
import { withPostgresClient } from './support/postgres-admin.ts';
import { useTestService } from './support/test-service.ts';

/**
 * PostgreSQL ends a connection while a transaction holds it between two statements: a failover, a
 * restart, an administrator's pg_terminate_backend. vitest.config.ts includes this file only when
 * DATABASE_URL names a PostgreSQL server (PGlite has no server to end a connection).
 */
const service = useTestService();

/** Until the server process of `pid` is gone, so its last message has been sent to the client. */
async function untilEnded(pid: number): Promise<void> {
  for (let tries = 0; tries < 250; tries++) {
    const left = await withPostgresClient(String(service().databaseUrl), (client) =>
      client.query('select 1 from pg_stat_activity where pid = $1', [pid]),
    );
    if (left.rowCount === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`connection ${pid} still there after 5 s`);
}

describe('a connection the server ends in the middle of a transaction (PostgreSQL)', () => {
  it('fails that transaction as an outage (503), logs why, and the pool serves on', async () => {
    // A pool of its own, wired as main.ts wires the service's.
    const database = await openDatabase({ databaseUrl: String(service().databaseUrl) });
    if (database.kind !== 'postgres') throw new Error('a PostgreSQL database was expected');
    const warned: { err: Error; message: string }[] = [];
    reportLostConnections(database.client, {
      warn: (details, message) => warned.push({ ...details, message }),
    });
    try {
      const outcome = database.db
        .transaction(async (tx) => {
          const [row] = rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`));
          const pid = Number(row?.pid);
          await withPostgresClient(String(service().databaseUrl), (client) =>
            client.query('select pg_terminate_backend($1)', [pid]),
          );
          await untilEnded(pid);
          // The server's message has reached the idle connection before its next statement: that
          // one must fail, not the process (which an unheard error event of the connection ends).
          await new Promise((resolve) => setTimeout(resolve, 100));
          await tx.execute(sql`select 1`);
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(isDatabaseUnavailable(await outcome)).toBe(true);
      // Why, in the log: the server's own words (57P01, terminated by an administrator).
      expect(warned).toHaveLength(1);
      expect(warned[0]?.err).toMatchObject({ code: '57P01' });
      expect(warned[0]?.message).toMatch(/^A PostgreSQL connection of the pool was closed by the server/);
      const [row] = rowsOf<{ one: number }>(await database.db.execute(sql`select 1 as one`));
      expect(row?.one).toBe(1);
    } finally {
      await database.close();
    }
  });
});
