import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeClient } from '../src/provisioning/client-operations.ts';
import { rowsOf } from '../src/store/rows.ts';
import { signedInBrowser } from './admin-api-kit.ts';
import { CLIENT_ID, createAccount, POST_LOGOUT_URI, registerTestClient } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/**
 * The service's transactions against another one on the same rows, on PostgreSQL: the test's own
 * connection stands in for a second request or instance. vitest.config.ts includes this file only
 * when DATABASE_URL names a PostgreSQL server (PGlite has one connection, so nothing waits there),
 * and its role must be allowed to set deadlock_timeout (a superuser, as in CI).
 *
 * The deadlocks are the ones a sign-out and a client's removal can make: each deletes the grant,
 * then writes the session. The other transaction takes the session first, waits until the service's
 * waits for it, then asks for the grant. PostgreSQL looks for a cycle after a waiter's
 * deadlock_timeout: the service's connections keep the default (1 s), the other one waits 10 s, so the
 * service's transaction is the one rolled back (40P01), and run again (store/retried-transaction.ts).
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

/** The test's own transaction; it gives up on a lock after 20 s rather than hang the run. */
async function otherTransaction(): Promise<pg.Client> {
  other = new pg.Client({ connectionString: service().databaseUrl });
  await other.connect();
  await other.query('begin');
  await other.query(`set local deadlock_timeout = '10s'`);
  await other.query(`set local lock_timeout = '20s'`);
  return other;
}

/** Signs in at the test client; answers the browser and the session and grant that sign-in stored. */
async function signedIn() {
  const browser = await signedInBrowser(app(), 'grace@example.com', 'Correct-Horse-42');
  const sessions = rowsOf<{ id: string; grant: string }>(
    await db().execute(
      sql`select id, payload->'authorizations'->${CLIENT_ID}->>'grantId' as grant from oidc_payload
          where type = 'Session' and payload->'authorizations' ? ${CLIENT_ID}`,
    ),
  );
  expect(sessions).toHaveLength(1);
  const [{ id: session, grant } = { id: '', grant: '' }] = sessions;
  expect(await stored('Grant', grant)).toBe(1);
  return { browser, rows: { session, grant } };
}

async function stored(type: string, id: string): Promise<number> {
  return rowsOf(await db().execute(sql`select 1 from oidc_payload where type = ${type} and id = ${id}`))
    .length;
}

async function deadlocks(): Promise<number> {
  const [row] = rowsOf<{ deadlocks: string }>(
    await db().execute(sql`select deadlocks from pg_stat_database where datname = current_database()`),
  );
  return Number(row?.deadlocks);
}

/**
 * Waits until another connection of this database waits for a lock the test's transaction holds (the
 * service's): not any wait, so the test goes on only once the service is stuck behind it.
 */
async function untilWaitingFor(tx: pg.Client): Promise<void> {
  const [{ pid } = { pid: 0 }] = (await tx.query<{ pid: number }>('select pg_backend_pid() as pid')).rows;
  await vi.waitFor(
    async () => {
      const waiting = rowsOf(
        await db().execute(
          sql`select 1 from pg_stat_activity
              where datname = current_database() and ${pid}::int = any(pg_blocking_pids(pid))`,
        ),
      );
      expect(waiting.length).toBeGreaterThan(0);
    },
    { timeout: 10_000, interval: 10 },
  );
}

/** Starts `work` meanwhile; until awaited, its failure must not count as unhandled. */
function started<T>(work: () => Promise<T>): Promise<T> {
  const running = work();
  running.catch(() => undefined);
  return running;
}

/**
 * Takes the session's row, waits until `work` (started meanwhile) waits for it, asks for the grant's
 * row (the cycle), and commits once it has it.
 */
async function crossing<T>(rows: { session: string; grant: string }, work: () => Promise<T>): Promise<T> {
  const tx = await otherTransaction();
  await tx.query(`select 1 from oidc_payload where type = 'Session' and id = $1 for update`, [rows.session]);
  const running = started(work);
  await untilWaitingFor(tx);
  await tx.query(`select 1 from oidc_payload where type = 'Grant' and id = $1 for update`, [rows.grant]);
  await tx.query('commit');
  return running;
}

/**
 * PostgreSQL found a cycle since `before` (its statistics reach the view some seconds after at most).
 * At least one, not exactly one: a CI run on a busy machine once counted two in the sign-out's test,
 * and the count cannot say whose each was. That the service's transaction was the one rolled back
 * follows from the locks: the test's transaction got the grant's row, which the service held while
 * it waited for the test's session row, so the service's transaction ended without committing.
 */
async function aDeadlockSince(before: number): Promise<void> {
  await vi.waitFor(async () => expect(await deadlocks()).toBeGreaterThan(before), {
    timeout: 15_000,
    interval: 100,
  });
}

describe('a deadlock with another transaction (PostgreSQL)', () => {
  it('still signs out: the sign-out rolled back by the deadlock is run again and ends the session', async () => {
    const { browser, rows } = await signedIn();
    const end = await browser.get(`/oidc/session/end?${new URLSearchParams({ client_id: CLIENT_ID })}`);
    const logoutId = new URL(String(end.headers.location), 'http://x').searchParams.get('logoutId') ?? '';
    const deadlocksBefore = await deadlocks();

    const logout = await crossing(rows, () => browser.post('/api/Logout', { logoutId, confirmed: true }));

    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toMatchObject({ username: 'Grace Hopper' });
    expect(await stored('Session', rows.session)).toBe(0);
    expect(await stored('Grant', rows.grant)).toBe(0);
    await aDeadlockSince(deadlocksBefore);
  });

  it("still removes a client: the removal rolled back by the deadlock is run again and ends the client's grant", async () => {
    const { rows } = await signedIn();
    const deadlocksBefore = await deadlocks();

    const removed = await crossing(rows, () => removeClient({ db: db() }, { id: CLIENT_ID }));

    expect(removed).toMatchObject({ clientId: CLIENT_ID });
    expect(await stored('Grant', rows.grant)).toBe(0);
    const [session] = rowsOf<{ payload: { authorizations?: object } }>(
      await db().execute(
        sql`select payload from oidc_payload where type = 'Session' and id = ${rows.session}`,
      ),
    );
    expect(Object.keys(session?.payload.authorizations ?? {})).not.toContain(CLIENT_ID);
    await aDeadlockSince(deadlocksBefore);
    await registerTestClient(db());
  });
});

describe('a sign-out that waits for a removal of its client (PostgreSQL)', () => {
  it('does not send the browser back to the client the removal took it from', async () => {
    const { browser, rows } = await signedIn();
    const end = await browser.get(
      `/oidc/session/end?${new URLSearchParams({ client_id: CLIENT_ID, post_logout_redirect_uri: POST_LOGOUT_URI, state: 'st-1' })}`,
    );
    const logoutId = new URL(String(end.headers.location), 'http://x').searchParams.get('logoutId') ?? '';
    // What a removal of the client does to its sign-outs (withholdLogoutRedirects), held uncommitted
    // while the sign-out, which read the request before, waits to use it up.
    const tx = await otherTransaction();
    await tx.query(
      'update logout_request set post_logout_redirect_uri = null, state = null where id_hash = $1',
      [createHash('sha256').update(logoutId).digest('hex')],
    );
    const running = started(() => browser.post('/api/Logout', { logoutId, confirmed: true }));
    await untilWaitingFor(tx);
    await tx.query('commit');
    const logout = await running;

    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toEqual({ username: 'Grace Hopper', postLogoutRedirectUri: null });
    expect(await stored('Session', rows.session)).toBe(0);
    // A reload answers the same.
    expect((await browser.post('/api/Logout', { logoutId })).json()).toEqual({
      username: 'Grace Hopper',
      postLogoutRedirectUri: null,
    });
  });
});
