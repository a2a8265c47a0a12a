import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
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
  it('fails that transaction as an outage (503), and the service goes on serving', async () => {
    const outcome = service()
      .db.transaction(async (tx) => {
        const [row] = rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`));
        const pid = Number(row?.pid);
        await withPostgresClient(String(service().databaseUrl), (client) =>
          client.query('select pg_terminate_backend($1)', [pid]),
        );
        await untilEnded(pid);
        // The server's message has reached the idle connection before its next statement: that one
        // must fail, not the process (which an unheard error event of the connection would end).
        await new Promise((resolve) => setTimeout(resolve, 100));
        await tx.execute(sql`select 1`);
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isDatabaseUnavailable(await outcome)).toBe(true);
    const ready = await service().app.inject({ method: 'GET', url: '/health/ready' });
    // The readiness probe's own statement passes (the mail worker is not started in this test).
    expect(ready.json()).toMatchObject({ checks: { database: { status: 'pass' } } });
    const [row] = rowsOf<{ one: number }>(await service().db.execute(sql`select 1 as one`));
    expect(row?.one).toBe(1);
  });
});
