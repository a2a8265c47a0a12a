import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import { errorBodySchema } from '@keycard/contract';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { RouteModule } from '../src/http/route-module.ts';
import { apiRoutes } from '../src/http/routes/index.ts';
import type { Db } from '../src/store/database.ts';
import { openDatabase } from '../src/store/open-database.ts';
import { oidcPayloads } from '../src/store/tables/index.ts';
import { isDatabaseUnavailable } from '../src/store/unavailable.ts';
import { buildTestApp } from './support/app.ts';
import { openMigratedPglite, useTestDatabase } from './support/database.ts';

const testDb = useTestDatabase();
const COOKIE_SECRETS = 's'.repeat(32);
/** Keys from configuration, as in production, so building the app needs no database. */
const OIDC_JWKS = JSON.stringify({
  keys: [
    {
      ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
      kid: 'k1',
      alg: 'RS256',
      use: 'sig',
    },
  ],
});
const OFFLINE_ENV = { COOKIE_SECRETS, OIDC_JWKS, DEMO: 'false' };

/** A token the provider would look up by its value, as it does refresh tokens and session ids. */
const LIVE_TOKEN = 'LIVE-RefreshToken-x9Qw';

/** A test-only call that reads the database, as every account call will. */
const probe: RouteModule = (api, { db }) => {
  api.get('/api/test-query', async () => {
    await db.execute(sql`select name from secret limit 1`);
    return { ok: true };
  });
  api.get('/api/test-lookup', async () => {
    await db.select().from(oidcPayloads).where(eq(oidcPayloads.id, LIVE_TOKEN));
    return { ok: true };
  });
  api.get('/api/test-bad-sql', async () => {
    await db.execute(sql`select * from no_such_table`);
    return { ok: true };
  });
};

/** A TCP port on which nothing listens: connections are refused like a stopped database's. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

async function queryThrough(db: Db) {
  const app = await buildTestApp(db, { env: OFFLINE_ENV, routes: [...apiRoutes, probe] });
  const response = await app.inject({ method: 'GET', url: '/api/test-query' });
  const csrf = await app.inject({ method: 'GET', url: '/api/getcsrftoken' });
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    headers: {
      cookie: csrf.cookies.map((c) => `${c.name}=${c.value}`).join('; '),
      'x-csrf-token': csrf.body,
    },
    payload: { Username: 'ada@example.com', Password: 'Correct-Horse-42', ReturnUrl: '/oidc/auth/abc' },
  });
  await app.close();
  // Whatever else fails, nobody is signed in while the database is away.
  expect(login.statusCode).not.toBe(200);
  return response;
}

describe('database outage (DESIGN §2: 503, never a 500 or a stack)', () => {
  it('answers 503 service_unavailable when PostgreSQL refuses connections', async () => {
    const down = await openDatabase({
      databaseUrl: `postgres://keycard@127.0.0.1:${await closedPort()}/keycard`,
    });
    const response = await queryThrough(down.db);
    await down.close();
    expect(response.statusCode).toBe(503);
    expect(errorBodySchema.parse(response.json()).code).toBe('service_unavailable');
    expect(response.headers['retry-after']).toBe('5');
    expect(response.body).not.toContain('ECONNREFUSED');
  });

  it("still leads the error page's way back on: the default redirect, with or without a RedirectUrl", async () => {
    const closed = await openMigratedPglite();
    await closed.close();
    const app = await buildTestApp(closed.db, {
      env: { ...OFFLINE_ENV, DEFAULT_REDIRECT_URL: 'https://home.example/start' },
      routes: apiRoutes,
    });
    try {
      for (const query of ['', '?RedirectUrl=https%3A%2F%2Fplanner.example%2Fhome']) {
        const response = await app.inject({ method: 'GET', url: `/api/DefaultRedirect${query}` });
        expect(response.statusCode, query).toBe(303);
        expect(response.headers.location, query).toBe('https://home.example/start');
      }
    } finally {
      await app.close();
    }
  });

  it('logs a lookup that met the outage with its statement and reason, never the value it looked for', async () => {
    const closed = await openMigratedPglite();
    await closed.close();
    const logged: string[] = [];
    const app = await buildTestApp(closed.db, {
      env: OFFLINE_ENV,
      routes: [...apiRoutes, probe],
      logger: { level: 'info', stream: { write: (line: string) => void logged.push(line) } },
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/test-lookup' });
      expect(response.statusCode).toBe(503);
    } finally {
      await app.close();
    }
    const errors = logged.map((line) => JSON.parse(line) as { level: number; err?: { message: string } });
    const failure = errors.find((line) => line.err !== undefined);
    expect(failure?.err?.message).toMatch(/^Failed query: select .* from "oidc_payload"/);
    expect(logged.join('\n')).not.toContain(LIVE_TOKEN);
  });

  it('answers 503 when the embedded database has been closed', async () => {
    const closed = await openMigratedPglite();
    await closed.close();
    const response = await queryThrough(closed.db);
    expect(response.statusCode).toBe(503);
  });

  it('keeps answering 500 for a broken query on a healthy database', async () => {
    const app = await buildTestApp(testDb().db, { routes: [...apiRoutes, probe] });
    const healthy = await app.inject({ method: 'GET', url: '/api/test-query' });
    const broken = await app.inject({ method: 'GET', url: '/api/test-bad-sql' });
    await app.close();
    expect(healthy.statusCode).toBe(200);
    expect(broken.statusCode).toBe(500);
    expect(broken.json()).toEqual({ code: 'internal_error', message: 'Something went wrong on our side.' });
  });

  it('recognises outage errors through wrappers and not ordinary ones', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([refused]))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});
