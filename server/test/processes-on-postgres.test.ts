import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findAccountByEmail } from '../src/accounts/account-repository.ts';
import { LOCK_FILE_NAME } from '../src/lock-file.ts';
import { runAdmin } from './admin-harness.ts';
import { createTestDatabase } from './support/database.ts';
import { administer } from './support/postgres-admin.ts';
import { freePort, startService, useServiceProcesses } from './support/service-process.ts';
import { runTracedJourney } from './support/traced-journey.ts';

useServiceProcesses();

/**
 * The service and the admin CLI started with DATABASE_URL, each on its own database of the
 * PostgreSQL server the run names. vitest.config.ts includes this file only when DATABASE_URL is set
 * (the PostgreSQL pass); their embedded counterparts are in main.test.ts and admin-embedded.test.ts.
 */
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'keycard-on-postgres-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('main on PostgreSQL', () => {
  it('migrates, serves, takes no DATA_DIR lock and logs a pooled connection the server closed', async () => {
    const database = await createTestDatabase({ migrated: false });
    try {
      const port = await freePort();
      const env = { DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: String(database.databaseUrl) };
      const service = startService(env);
      await service.waitFor(/Keycard listening on (\S+)/);
      expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
      expect((await fetch(`http://127.0.0.1:${port}/api/i18n/getresource`)).status).toBe(200);

      // PostgreSQL ends the pool's idle connections (as a restart would): the log says so, and the
      // service serves again without a restart. A statement sent before the pool heard of a closed
      // connection fails on it (503), so readiness is polled until it passes.
      const name = new URL(String(database.databaseUrl)).pathname.slice(1);
      await administer(
        String(process.env.DATABASE_URL),
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`,
      );
      await service.waitFor(
        /A PostgreSQL connection of the pool was closed by the server: the pool opens a new one when needed/,
      );
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/health/ready`)).status, { timeout: 10_000 })
        .toBe(200);
      service.child.kill('SIGTERM');
      expect(await service.exited()).toBe(0);
    } finally {
      await database.dispose();
    }
  }, 60_000);
});

describe('admin CLI with DATABASE_URL', () => {
  it('connects to PostgreSQL and takes no DATA_DIR lock', async () => {
    const postgres = await createTestDatabase();
    try {
      const run = await runAdmin(['user:add', '--email', 'pg@example.com', '--name', 'Post Gres', '--json'], {
        env: { DATA_DIR: dataDir, DATABASE_URL: postgres.databaseUrl },
      });
      expect(run.json()).toMatchObject({ ok: true, via: 'database' });
      expect(await findAccountByEmail(postgres.database.db, 'pg@example.com')).not.toBeNull();
      expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
    } finally {
      await postgres.dispose();
    }
  });
});

describe('tracing on PostgreSQL', () => {
  it("exports a sign-in's queries in its trace (instrumentation-pg), with placeholders and no secret", async () => {
    const database = await createTestDatabase({ migrated: false });
    try {
      const journey = await runTracedJourney({
        DATABASE_URL: database.databaseUrl,
        OTEL_SERVICE_NAME: 'login-eu',
      });
      try {
        expect(await journey.stop()).toBe(0);
        const { spans } = journey.collector;
        const login = spans.find(
          (span) => span.name === 'POST /api/login' && span.attributes['http.response.status_code'] === 200,
        );
        if (!login) throw new Error(`no sign-in span among ${spans.map((span) => span.name)}`);
        const trace = spans.filter((span) => span.traceId === login.traceId);
        const queries = trace.filter((span) => span.scope === '@opentelemetry/instrumentation-pg');
        // A prepared statement's span carries its name (store/prepared.ts), an unnamed one its command.
        expect(queries.some((span) => span.name.startsWith('pg.query:login_attempt'))).toBe(true);
        expect(
          queries.some((span) => /"email_normalized" = \$\d+/.test(String(span.attributes['db.query.text']))),
        ).toBe(true);
        expect(trace.filter((span) => span.name === 'argon2.verify')).toHaveLength(1);
        expect(spans.filter((span) => span.name === 'smtp.send')).toHaveLength(1);
        expect(spans.every((span) => span.resource['service.name'] === 'login-eu')).toBe(true);
        const exported = journey.collector.bodies.join('\n');
        for (const secret of journey.secrets) expect(exported).not.toContain(secret);
      } finally {
        await journey.dispose();
      }
    } finally {
      // Also when the journey failed to start: the database is never left on the server.
      await database.dispose();
    }
  }, 120_000);
});
