import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createReadiness, type ReadinessReport } from '../src/http/readiness.ts';
import type { Db } from '../src/store/database.ts';
import { openDatabase } from '../src/store/open-database.ts';
import { migrationsApplied } from '../src/store/readiness-queries.ts';
import { eventually } from './mail-kit.ts';
import { buildTestApp, productionEnv, type TestAppOptions } from './support/app.ts';
import { createTestDatabase, type TestDatabase, useTestDatabase } from './support/database.ts';
import { databaseSwitch } from './support/database-switch.ts';

// Issue 17: GET /health/live and /health/ready for load balancers, readiness that follows the
// database without a restart and never hangs, and the drain before a stop (the process-level drain
// is test/drain.test.ts).

const testDb = useTestDatabase();
const opened: FastifyInstance[] = [];
const disposals: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const app of opened.splice(0)) await app.close();
  for (const dispose of disposals.splice(0).reverse()) await dispose();
});

async function appOn(db: Db, options: TestAppOptions = {}): Promise<FastifyInstance> {
  const app = await buildTestApp(db, options);
  opened.push(app);
  return app;
}

/** An app as main.ts runs it once listening: its mail worker started. */
async function runningApp(db: Db, options: TestAppOptions = {}): Promise<FastifyInstance> {
  const app = await appOn(db, options);
  app.mail.start();
  return app;
}

/** Every line an app logs, parsed. */
function logCapture(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const logger = { level, stream: { write: (line: string) => void lines.push(JSON.parse(line)) } };
  return { lines, logger };
}

async function ready(app: FastifyInstance) {
  const response = await app.inject({ method: 'GET', url: '/health/ready' });
  return { statusCode: response.statusCode, report: response.json<ReadinessReport>(), response };
}

const ALL_PASS = {
  status: 'pass',
  checks: { database: { status: 'pass' }, migrations: { status: 'pass' }, mailWorker: { status: 'pass' } },
};

describe('GET /health/live and /health/ready', () => {
  it('live answers 200 as long as the process serves, never cached', async () => {
    const app = await appOn(testDb().db);
    const response = await app.inject({ method: 'GET', url: '/health/live' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'pass' });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('ready answers 200 naming each check once the database, the migrations and the mail worker pass', async () => {
    const app = await runningApp(testDb().db);
    const { statusCode, report, response } = await ready(app);
    expect(statusCode).toBe(200);
    expect(report).toEqual(ALL_PASS);
    expect(response.headers['cache-control']).toBe('no-store');
    const head = await app.inject({ method: 'HEAD', url: '/health/ready' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('ready answers 503 while the mail worker is not started, and again once it stopped', async () => {
    const app = await appOn(testDb().db);
    expect(await ready(app)).toMatchObject({
      statusCode: 503,
      report: {
        status: 'fail',
        checks: { ...ALL_PASS.checks, mailWorker: { status: 'fail', reason: 'stopped' } },
      },
    });
    app.mail.start();
    expect((await ready(app)).statusCode).toBe(200);
    await app.mail.stop();
    expect((await ready(app)).report.checks.mailWorker).toEqual({ status: 'fail', reason: 'stopped' });
  });

  it('ready answers 503 naming the migrations when the database lacks one of this build, 200 once it is applied', async () => {
    const own = await createTestDatabase();
    disposals.push(() => own.dispose());
    const app = await runningApp(own.database.db);
    const newest = sql`drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`;
    const removed = await own.database.db.execute(sql`delete from ${newest} returning hash, created_at`);
    expect((await ready(app)).report).toMatchObject({
      status: 'fail',
      checks: { database: { status: 'pass' }, migrations: { status: 'fail', reason: 'behind' } },
    });
    const [row] = (removed as unknown as { rows: { hash: string; created_at: string }[] }).rows;
    await own.database.db.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${row?.hash}, ${row?.created_at})`,
    );
    expect((await ready(app)).report).toEqual(ALL_PASS);
  });

  it("counts a database without drizzle's record of migrations as behind", async () => {
    const own = await createTestDatabase();
    disposals.push(() => own.dispose());
    const { db } = own.database;
    await db.execute(sql`alter table drizzle.__drizzle_migrations rename to away`);
    expect(await migrationsApplied(db)).toBe(false);
    await db.execute(sql`alter table drizzle.away rename to __drizzle_migrations`);
    expect(await migrationsApplied(db)).toBe(true);
  });
});

describe('what a load balancer probe meets', () => {
  it('any Host: the instance address a probe uses is not refused with 421, while pages still are', async () => {
    const app = await appOn(testDb().db, { env: productionEnv() });
    const host = '10.1.2.3:3000';
    for (const url of ['/health/live', '/health/ready']) {
      const response = await app.inject({ method: 'GET', url, headers: { host } });
      expect(response.statusCode, url).not.toBe(421);
      expect(response.json(), url).toHaveProperty('status');
    }
    for (const url of ['/api/getcsrftoken', '/', '/HEALTH/live', '/health/unknown']) {
      const response = await app.inject({ method: 'GET', url, headers: { host } });
      expect(response.statusCode, url).toBe(421);
    }
  });

  it('GET and HEAD only; an unknown /health path is a 404, not the SPA', async () => {
    const app = await appOn(testDb().db);
    const post = await app.inject({ method: 'POST', url: '/health/ready', payload: {} });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const unknown = await app.inject({ method: 'GET', url: '/health/deep' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'not_found' });
  });

  it('is not counted by the request limit: with RATE_LIMIT_PER_MINUTE=2, the 3rd probe still answers', async () => {
    const app = await runningApp(testDb().db, { env: { RATE_LIMIT_PER_MINUTE: '2' } });
    for (let probe = 1; probe <= 3; probe++) {
      expect((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    }
    const statuses = [];
    for (let call = 1; call <= 3; call++) {
      statuses.push((await app.inject({ method: 'GET', url: '/api/getcsrftoken' })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('while draining: ready answers 503 "draining", live 200, and every other request is still served, closing its connection', async () => {
    const app = await runningApp(testDb().db);
    app.readiness.drain();
    expect(await ready(app)).toMatchObject({
      statusCode: 503,
      report: { status: 'draining', checks: ALL_PASS.checks },
    });
    expect((await app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    const call = await app.inject({ method: 'GET', url: '/api/getcsrftoken' });
    expect(call.statusCode).toBe(200);
    expect(call.headers.connection).toBe('close');
  });
});

describe('probes in the request log', () => {
  it('are not logged at info, so the log is not a list of probes', async () => {
    const { lines, logger } = logCapture('info');
    const app = await runningApp(testDb().db, { logger });
    await app.inject({ method: 'GET', url: '/health/ready' });
    await app.inject({ method: 'GET', url: '/health/live' });
    await app.inject({ method: 'GET', url: '/api/getcsrftoken' });
    expect(lines.filter((line) => line.msg === 'request completed')).toEqual([
      expect.objectContaining({ level: 30, req: expect.objectContaining({ url: '/api/getcsrftoken' }) }),
    ]);
  });

  it('with LOG_LEVEL=debug they are logged too, at debug', async () => {
    const { lines, logger } = logCapture('debug');
    const app = await runningApp(testDb().db, { logger });
    const probe = await app.inject({ method: 'GET', url: '/health/live' });
    expect(lines.filter((line) => line.msg === 'request completed')).toEqual([
      expect.objectContaining({
        level: 20,
        reqId: probe.headers['x-request-id'],
        req: expect.objectContaining({ url: '/health/live' }),
      }),
    ]);
  });
});

/**
 * A database that stops answering and comes back. On PostgreSQL a relay in front of the server is
 * switched off (connections cut, new ones refused) and on; the embedded PGlite cannot go away and
 * come back, but it can stop answering: a transaction held open makes every other query wait.
 */
interface Outage {
  readonly db: Db;
  /** What the database check reports during the outage. */
  readonly reason: 'unreachable' | 'timed_out';
  begin(): Promise<void>;
  end(): Promise<void>;
}

async function serverOutage(test: TestDatabase): Promise<Outage> {
  const relay = await databaseSwitch(test.databaseUrl ?? '');
  const database = await openDatabase({ databaseUrl: relay.url });
  disposals.push(async () => {
    await database.close();
    await relay.close();
  });
  return { db: database.db, reason: 'unreachable', begin: () => relay.off(), end: () => relay.on() };
}

function embeddedOutage(test: TestDatabase): Outage {
  let release = () => {};
  let held: Promise<unknown> = Promise.resolve();
  return {
    db: test.database.db,
    reason: 'timed_out',
    async begin() {
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let entered = () => {};
      const inside = new Promise<void>((resolve) => {
        entered = resolve;
      });
      held = test.database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        entered();
        await released;
      });
      await inside;
    },
    async end() {
      release();
      await held;
    },
  };
}

describe(`readiness follows the database without a restart (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('flips to 503 naming the database during an outage, logs it once, and back to 200 once it is over', async () => {
    const test = await createTestDatabase();
    disposals.push(() => test.dispose());
    const outage = test.kind === 'postgres' ? await serverOutage(test) : embeddedOutage(test);
    const { lines, logger } = logCapture('info');
    const app = await runningApp(outage.db, { logger });
    expect((await ready(app)).report).toEqual(ALL_PASS);

    await outage.begin();
    for (let probe = 1; probe <= 2; probe++) {
      const during = await ready(app);
      expect(during.statusCode).toBe(503);
      expect(during.report).toMatchObject({
        status: 'fail',
        checks: { database: { status: 'fail', reason: outage.reason }, mailWorker: { status: 'pass' } },
      });
      // The answer says nothing about the deployment: no address, port or driver message.
      expect(JSON.stringify(during.report)).not.toMatch(/127\.0\.0\.1|ECONN|PGlite|\d{4,}/);
    }

    await outage.end();
    await eventually(async () => (await ready(app)).statusCode === 200);
    expect((await ready(app)).report).toEqual(ALL_PASS);
    const changes = lines.filter((line) => /^(Not ready|Ready again)/.test(String(line.msg)));
    expect(changes).toEqual([
      expect.objectContaining({ level: 40, msg: 'Not ready: GET /health/ready answers 503' }),
      expect.objectContaining({ level: 30, msg: 'Ready again: GET /health/ready answers 200' }),
    ]);
    expect(changes[0]?.checks).toHaveProperty(
      'database',
      expect.stringMatching(new RegExp(`^${outage.reason}: `)),
    );
  });

  it('never hangs: a check without an answer within 800 ms fails as timed out', async () => {
    const test = await createTestDatabase();
    disposals.push(() => test.dispose());
    const app = await runningApp(test.database.db);
    expect((await ready(app)).statusCode).toBe(200);
    // PostgreSQL answers `select 1` but not the migrations check behind a table lock; PGlite answers
    // neither while a transaction holds it.
    const blocker = test.kind === 'postgres' ? await migrationsLocked(test) : embeddedOutage(test);
    await blocker.begin();
    const started = performance.now();
    const { statusCode, report } = await ready(app);
    const elapsed = performance.now() - started;
    await blocker.end();
    expect(statusCode).toBe(503);
    expect(report.checks.migrations).toEqual({ status: 'fail', reason: 'timed_out' });
    expect(elapsed).toBeGreaterThanOrEqual(790);
    expect(elapsed).toBeLessThan(800 + 700);
    await eventually(async () => (await ready(app)).statusCode === 200);
  });

  it('sends one check query at a time, however often it is probed while the database does not answer', async () => {
    const test = await createTestDatabase();
    disposals.push(() => test.dispose());
    let queries = 0;
    const counted = new Proxy(test.database.db, {
      get(target, property, receiver) {
        if (property !== 'execute') return Reflect.get(target, property, receiver);
        return (...args: Parameters<Db['execute']>) => {
          queries += 1;
          return target.execute(...args);
        };
      },
    });
    const readiness = createReadiness({
      db: counted,
      mailWorkerRunning: () => true,
      log: { info: () => {}, warn: () => {} },
      timeoutMs: 300,
    });
    // A busy machine can make the first checks of a fresh database outlast the timeout; the count
    // starts once the database has answered.
    await eventually(async () => (await readiness.check()).status === 'pass');
    queries = 0;
    expect((await readiness.check()).status).toBe('pass');
    expect(queries).toBe(2);
    // PostgreSQL gives each check a connection of its own, and a lock held on drizzle's table stops
    // only the migrations check (the ping is sent and answered each time); PGlite stops both.
    const postgres = test.kind === 'postgres';
    const blocker = postgres ? await migrationsLocked(test) : embeddedOutage(test);
    await blocker.begin();
    for (let probe = 1; probe <= 3; probe++) {
      expect((await readiness.check()).checks.migrations).toEqual({ status: 'fail', reason: 'timed_out' });
    }
    expect(queries).toBe(postgres ? 2 + 3 + 1 : 2 + 2);
    await blocker.end();
    await eventually(async () => (await readiness.check()).status === 'pass');
  });
});

/** Holds an exclusive lock on drizzle's migrations table from a connection of its own. */
async function migrationsLocked(test: TestDatabase) {
  const other = await openDatabase({ databaseUrl: test.databaseUrl ?? '' });
  if (other.kind !== 'postgres') throw new Error('a PostgreSQL database was expected');
  const session = await other.client.connect();
  return {
    async begin() {
      await session.query('begin');
      await session.query('lock table drizzle.__drizzle_migrations in access exclusive mode');
    },
    async end() {
      await session.query('rollback');
      session.release();
      await other.close();
    },
  };
}
