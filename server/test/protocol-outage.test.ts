import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { type Clock, clockReading, databaseClock } from '../src/store/clock.ts';
import type { Db } from '../src/store/database.ts';
import { openDatabase } from '../src/store/open-database.ts';
import { outbox } from '../src/store/tables/mail.ts';
import { eventually } from './mail-kit.ts';
import { deadPort } from './mail-sink.ts';
import { buildTestApp } from './support/app.ts';
import { createTestDatabase, openMigratedPglite, useTestDatabase } from './support/database.ts';
import { databaseSwitch } from './support/database-switch.ts';
import {
  authorizationRequest,
  CLIENT_ID,
  createAccount,
  REDIRECT_URI,
  registerTestClient,
  resumeToCode,
  TestBrowser,
} from './support/oidc-flow.ts';

// Issue 15: with the database unavailable, every protocol route answers an outage as an outage (OIDC
// Core 3.1.2.6 temporarily_unavailable; 503 with Retry-After for relying parties, the SPA's
// "temporarily unavailable" page for a person) and serves again once the database is back, without
// a restart. On PGlite the embedded database is closed (it lives and dies with the process, so there
// is no coming back to test); on PostgreSQL a relay in front of the server is switched off and on.

const PASSWORD = 'Outage-Horse-42';
/** The outage page, with the request's id as the reference a person quotes. */
const OUTAGE_PAGE = /^\/error\/([0-9A-Z]{8})\?reason=unavailable$/;

interface Outage {
  readonly db: Db;
  begin(): Promise<void>;
  /** Ends the outage; absent where the database cannot come back (a closed PGlite). */
  readonly end?: () => Promise<void>;
  dispose(): Promise<void>;
}

async function embeddedOutage(): Promise<Outage> {
  const database = await openMigratedPglite();
  return { db: database.db, begin: () => database.close(), dispose: async () => {} };
}

async function serverOutage(): Promise<Outage> {
  const test = await createTestDatabase();
  const relay = await databaseSwitch(test.databaseUrl ?? '');
  const database = await openDatabase({ databaseUrl: relay.url });
  return {
    db: database.db,
    begin: () => relay.off(),
    end: () => relay.on(),
    async dispose() {
      await database.close();
      await relay.close();
      await test.dispose();
    },
  };
}

const onPostgres = process.env.DATABASE_URL !== undefined;

/** A signed-in browser of the test client, its tokens and a code it has not redeemed yet. */
async function signedIn(app: FastifyInstance, db: Db) {
  await registerTestClient(db);
  await createAccount(db, 'ada@example.com', PASSWORD, 'Ada Lovelace');
  const browser = new TestBrowser(app);
  const first = authorizationRequest();
  const interaction = await browser.get(first.path);
  const returnUrl =
    new URL(String(interaction.headers.location), 'http://x').searchParams.get('ReturnUrl') ?? '';
  await browser.loadSpa();
  await browser.post('/api/login', { Username: 'ada@example.com', Password: PASSWORD, ReturnUrl: returnUrl });
  const tokens = (await redeem(app, await resumeToCode(browser, returnUrl), first.verifier)).json<{
    access_token: string;
  }>();
  const second = authorizationRequest();
  const code = await resumeToCode(browser, second.path);
  return { browser, accessToken: tokens.access_token, code, verifier: second.verifier };
}

function redeem(app: FastifyInstance, code: string, verifier: string) {
  return form(app, '/oidc/token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: CLIENT_ID,
    code_verifier: verifier,
  });
}

function form(app: FastifyInstance, url: string, fields: Record<string, string>) {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** Each protocol route, as a person's browser or a relying party calls it. */
function routes(app: FastifyInstance, flow: Awaited<ReturnType<typeof signedIn>>) {
  const { browser, accessToken, code, verifier } = flow;
  return {
    person: {
      authorization: () => browser.get(authorizationRequest().path),
      endSession: () => browser.get(`/oidc/session/end?client_id=${CLIENT_ID}`),
    },
    client: {
      token: () => redeem(app, code, verifier),
      userinfo: () =>
        app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${accessToken}` } }),
      introspection: () =>
        form(app, '/oidc/token/introspection', { client_id: CLIENT_ID, token: accessToken }),
      revocation: () => form(app, '/oidc/token/revocation', { client_id: CLIENT_ID, token: accessToken }),
    },
    published: {
      jwks: () => app.inject({ method: 'GET', url: '/oidc/jwks' }),
      discovery: () => app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' }),
    },
  };
}

function expectOutageAnswer(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(503);
  expect(response.headers['retry-after']).toBe('5');
  expect(response.json()).toEqual({
    error: 'temporarily_unavailable',
    error_description: expect.any(String),
  });
}

async function expectOutage(all: ReturnType<typeof routes>) {
  for (const [name, call] of Object.entries(all.person)) {
    const response = await call();
    expect([name, response.statusCode]).toEqual([name, 303]);
    const reference = OUTAGE_PAGE.exec(String(response.headers.location))?.[1];
    expect([name, reference]).toEqual([name, expect.stringMatching(/^[0-9A-Z]{8}$/)]);
    expect(response.headers['x-request-id']).toBe(reference);
  }
  for (const [name, call] of Object.entries(all.client)) {
    const response = await call();
    expect([name, response.statusCode]).toEqual([name, 503]);
    expectOutageAnswer(response);
  }
  for (const [name, call] of Object.entries(all.published)) {
    const response = await call();
    // The keys were read before the outage and are due again only after KEY_RELOAD_MS (30 s), with
    // either clock: the published documents need nothing else of the database.
    expect([name, response.statusCode]).toEqual([name, 200]);
  }
}

/** After the outage, each route works as it did: nothing of the outage stayed behind. */
async function expectServedAgain(all: ReturnType<typeof routes>) {
  expect((await all.client.userinfo()).json()).toMatchObject({ sub: expect.any(String) });
  // Answered again; a public client is told nothing about a token, its own included (RFC 7662 §2.1).
  const introspection = await all.client.introspection();
  expect(introspection.statusCode).toBe(200);
  expect(introspection.json()).toEqual({ active: false });
  const token = await all.client.token();
  expect(token.statusCode).toBe(200);
  expect(token.json()).toMatchObject({ id_token: expect.any(String) });
  expect((await all.client.revocation()).statusCode).toBe(200);
  const authorization = await all.person.authorization();
  expect(String(authorization.headers.location)).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
  const endSession = await all.person.endSession();
  expect(String(endSession.headers.location)).toMatch(/^\/logout\?logoutId=/);
  expect((await all.published.jwks()).statusCode).toBe(200);
  expect((await all.published.discovery()).statusCode).toBe(200);
}

const CLOCKS: ReadonlyArray<readonly [string, (db: Db) => Clock]> = [
  ["the database's clock, as the service runs", databaseClock],
  ['a clock of its own', () => clockReading(Date.now)],
];

describe.each(CLOCKS)('protocol routes in a database outage, with %s', (_name, clockOf) => {
  if (onPostgres) {
    it('answers temporarily_unavailable while PostgreSQL is unreachable, and serves again when it is back', async () => {
      const outage = await serverOutage();
      const app = await buildTestApp(outage.db, { clock: clockOf(outage.db) });
      try {
        const all = routes(app, await signedIn(app, outage.db));
        await outage.begin();
        await expectOutage(all);
        await outage.end?.();
        await expectServedAgain(all);
      } finally {
        await app.close();
        await outage.dispose();
      }
    });
  } else {
    it('answers temporarily_unavailable once the embedded database is closed', async () => {
      const outage = await embeddedOutage();
      const app = await buildTestApp(outage.db, { clock: clockOf(outage.db) });
      try {
        const all = routes(app, await signedIn(app, outage.db));
        await outage.begin();
        await expectOutage(all);
      } finally {
        await app.close();
        await outage.dispose();
      }
    });
  }
});

describe('protocol routes while SMTP is down', () => {
  const testDb = useTestDatabase();

  it('sign in and serve tokens as usual: mail waits in the outbox, never in a protocol request', async () => {
    const db = testDb().db;
    const app = await buildTestApp(db, { env: { SMTP_URL: `smtp://127.0.0.1:${await deadPort()}` } });
    try {
      app.mail.start();
      await createAccount(db, 'grace@example.com', PASSWORD, 'Grace Hopper');
      const someone = new TestBrowser(app);
      await someone.loadSpa();
      await someone.post('/api/forgotpassword', { email: 'grace@example.com' });
      // The worker has met the refused connection: SMTP is down for everything below.
      await eventually(async () => (await db.select().from(outbox)).some((row) => row.attempts > 0));
      expect((await db.select().from(outbox)).every((row) => row.sentAt === null)).toBe(true);

      const flow = await signedIn(app, db);
      const all = routes(app, flow);
      expect((await all.client.userinfo()).statusCode).toBe(200);
      expect((await all.client.token()).statusCode).toBe(200);
      const authorization = await all.person.authorization();
      expect(String(authorization.headers.location)).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=`));
    } finally {
      await app.close();
    }
  });
});
