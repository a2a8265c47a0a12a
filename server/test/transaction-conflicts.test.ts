import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeClient } from '../src/provisioning/client-operations.ts';
import { rowsOf } from '../src/store/rows.ts';
import { signedInBrowser } from './admin-api-kit.ts';
import { CLIENT_ID, createAccount, registerTestClient } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/**
 * Real deadlocks on PostgreSQL between the service and another transaction (here the test's own
 * connection, standing in for a second request or instance): the service's transaction that ended up
 * in the cycle is rolled back by PostgreSQL (40P01) and run again (store/retried-transaction.ts), so
 * the sign-out or the removal still goes through. vitest.config.ts includes this file only when
 * DATABASE_URL names a PostgreSQL server; PGlite has one connection, so no deadlock.
 *
 * The cycle is the one a sign-out and a client's removal can make: each deletes the grant, then
 * writes the session. The other transaction takes the session first, waits until the service's
 * transaction waits for it, then asks for the grant. PostgreSQL looks for a cycle after a waiter's
 * deadlock_timeout: the service's connections keep the default (1 s), the other one waits 10 s, so the
 * service's transaction is the one rolled back.
 */
const service = useTestService({
  setUp: async ({ db }) => {
    await registerTestClient(db);
    await createAccount(db, 'grace@example.com', 'Correct-Horse-42', 'Grace Hopper');
  },
});
const app = () => service().app;
const db = () => service().db;

let other: pg.Client | undefined;
afterEach(async () => {
  await other?.end();
  other = undefined;
});

/** The session and the grant a sign-in to the test client left (the newest of each). */
async function sessionAndGrant(): Promise<{ session: string; grant: string }> {
  const newest = async (type: string) => {
    const rows = rowsOf<{ id: string }>(
      await db().execute(
        sql`select id from oidc_payload where type = ${type} order by expires_at desc limit 1`,
      ),
    );
    return String(rows[0]?.id);
  };
  return { session: await newest('Session'), grant: await newest('Grant') };
}

const stored = async (type: string, id: string) =>
  rowsOf(await db().execute(sql`select 1 from oidc_payload where type = ${type} and id = ${id}`)).length;

async function deadlocks(): Promise<number> {
  const rows = rowsOf<{ deadlocks: string }>(
    await db().execute(sql`select deadlocks from pg_stat_database where datname = current_database()`),
  );
  return Number(rows[0]?.deadlocks);
}

/**
 * Takes the session's row in a transaction of its own, waits until `work` (started meanwhile) waits
 * for it, asks for the grant's row (the cycle), and commits once it has it.
 */
async function crossing<T>(rows: { session: string; grant: string }, work: () => Promise<T>): Promise<T> {
  other = new pg.Client({ connectionString: service().databaseUrl });
  await other.connect();
  await other.query('begin');
  await other.query(`set local deadlock_timeout = '10s'`);
  await other.query(`select 1 from oidc_payload where type = 'Session' and id = $1 for update`, [
    rows.session,
  ]);
  const done = work();
  // Awaited below; until then a failure must not count as unhandled.
  done.catch(() => undefined);
  await vi.waitFor(
    async () => {
      const waiting = rowsOf(
        await db().execute(
          sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        ),
      );
      expect(waiting.length).toBeGreaterThan(0);
    },
    { timeout: 10_000, interval: 10 },
  );
  await other.query(`select 1 from oidc_payload where type = 'Grant' and id = $1 for update`, [rows.grant]);
  await other.query('commit');
  return done;
}

describe('a deadlock with another transaction (PostgreSQL)', () => {
  it('still signs out: the sign-out rolled back by the deadlock is run again and ends the session', async () => {
    const browser = await signedInBrowser(app(), 'grace@example.com', 'Correct-Horse-42');
    const rows = await sessionAndGrant();
    const end = await browser.get(`/oidc/session/end?${new URLSearchParams({ client_id: CLIENT_ID })}`);
    const logoutId = new URL(String(end.headers.location), 'http://x').searchParams.get('logoutId') ?? '';
    const deadlocksBefore = await deadlocks();

    const logout = await crossing(rows, () => browser.post('/api/Logout', { logoutId, confirmed: true }));

    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toMatchObject({ username: 'Grace Hopper' });
    expect(await stored('Session', rows.session)).toBe(0);
    expect(await stored('Grant', rows.grant)).toBe(0);
    // PostgreSQL did find the cycle (its statistics reach the view shortly after).
    await vi.waitFor(async () => expect(await deadlocks()).toBe(deadlocksBefore + 1), { timeout: 5_000 });
  });

  it("still removes a client: the removal rolled back by the deadlock is run again and ends the client's grant", async () => {
    await signedInBrowser(app(), 'grace@example.com', 'Correct-Horse-42');
    const rows = await sessionAndGrant();
    const deadlocksBefore = await deadlocks();

    const removed = await crossing(rows, () => removeClient({ db: db() }, { id: CLIENT_ID }));

    expect(removed).toMatchObject({ clientId: CLIENT_ID });
    expect(await stored('Grant', rows.grant)).toBe(0);
    const sessions = rowsOf<{ payload: { authorizations?: object } }>(
      await db().execute(
        sql`select payload from oidc_payload where type = 'Session' and id = ${rows.session}`,
      ),
    );
    expect(Object.keys(sessions[0]?.payload.authorizations ?? {})).not.toContain(CLIENT_ID);
    await vi.waitFor(async () => expect(await deadlocks()).toBe(deadlocksBefore + 1), { timeout: 5_000 });
  });
});
