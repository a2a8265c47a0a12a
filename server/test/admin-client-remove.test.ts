import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  deleteClient,
  findClientKeyShared,
  insertLogoutRequest,
  insertResourceServer,
} from '../src/oidc/oidc-repository.ts';
import { updateResourceServer } from '../src/provisioning/resource-operations.ts';
import {
  backchannelLogouts,
  logoutRequests,
  oidcClients,
  oidcPayloads,
  oidcResourceServers,
} from '../src/store/tables/index.ts';
import { adminEvents, attemptSignIn, authorizationAnswer, useAdminApi } from './admin-api-kit.ts';
import { runAdmin } from './admin-harness.ts';
import {
  CLIENT_ID,
  createAccount,
  REDIRECT_URI,
  redeemCode,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { againstOpenTransaction } from './support/open-transaction.ts';

/**
 * client:remove and DELETE /admin/api/clients/{id}: a removed client is gone with everything issued
 * to it, on the running service at once; refused while a resource server names it.
 */

const EMAIL = 'ada@example.com';
const PASSWORD = 'Correct-Horse-42';
const { service, api } = useAdminApi({
  setUp: async ({ db }) => {
    await createAccount(db, EMAIL, PASSWORD);
  },
});
const app = () => service().app;
const db = () => service().db;

/** A signed-in person's tokens at the test client: code flow, then the token endpoint. */
async function signedInTokens() {
  const { browser, auth, body } = await attemptSignIn(app(), EMAIL, PASSWORD);
  expect(body.isAuthenticated).toBe(true);
  const code = await resumeToCode(browser, auth.returnUrl);
  return redeemCode(app(), code, auth.verifier);
}

const userinfo = (accessToken: string) =>
  app().inject({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${accessToken}` } });

async function storedFor(clientId: string) {
  const rows = await db()
    .select({ type: oidcPayloads.type, payload: oidcPayloads.payload })
    .from(oidcPayloads);
  return rows.filter(
    ({ payload }) =>
      payload.clientId === clientId ||
      (payload.params as { client_id?: string } | undefined)?.client_id === clientId,
  );
}

/** Registers a public client named as its id, through the admin API. */
const addPublicClient = (id: string) =>
  api('POST', '/clients', { id, name: id, redirectUris: [`https://${id}.example/cb`] });

/** How many stored sessions hold a sign-in at the client (their `authorizations` entry). */
async function sessionsNaming(clientId: string) {
  const sessions = await db().select().from(oidcPayloads).where(eq(oidcPayloads.type, 'Session'));
  return sessions.filter(({ payload }) => clientId in ((payload.authorizations as object | undefined) ?? {}))
    .length;
}

describe('DELETE /admin/api/clients/{id}', () => {
  it('removes the client with its grant, code, tokens and sign-ins in progress; the id registered again gets none of them', async () => {
    await registerTestClient(db());
    const tokens = await signedInTokens();
    expect((await userinfo(tokens.access_token)).statusCode).toBe(200);
    // A sign-in begun at the client and not finished yet.
    const pending = new TestBrowser(app());
    const begun = await startAuthorization(pending);
    await pending.loadSpa();
    expect((await storedFor(CLIENT_ID)).map(({ type }) => type)).toEqual(
      expect.arrayContaining(['Grant', 'AccessToken', 'AuthorizationCode', 'Interaction']),
    );
    expect(await sessionsNaming(CLIENT_ID)).toBe(1);

    const removed = await api('DELETE', `/clients/${CLIENT_ID}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ clientId: CLIENT_ID, productName: 'Planner', kind: 'public' });
    expect(await db().select().from(oidcClients).where(eq(oidcClients.clientId, CLIENT_ID))).toEqual([]);
    expect(await storedFor(CLIENT_ID)).toEqual([]);
    // The person's session stays (it may hold other clients' sign-ins) without this client's entry.
    expect(await sessionsNaming(CLIENT_ID)).toBe(0);
    expect(await db().select().from(oidcPayloads).where(eq(oidcPayloads.type, 'Session'))).toHaveLength(1);

    expect((await userinfo(tokens.access_token)).statusCode).toBe(401);
    const finished = await pending.post('/api/login', {
      Username: EMAIL,
      Password: PASSWORD,
      ReturnUrl: begun.returnUrl,
    });
    expect(finished.json()).toMatchObject({ code: 'interaction_expired' });
    // The provider no longer knows it: an authorization request ends on the error page.
    expect((await authorizationAnswer(app(), CLIENT_ID, REDIRECT_URI)).location).toMatch(
      /^\/error\/[0-9A-Z]{8}$/,
    );
    const [event] = (await adminEvents(db(), 'client:remove')).filter(
      (row) => (row.detail as { clientId?: string }).clientId === CLIENT_ID,
    );
    expect(event).toMatchObject({
      outcome: 'success',
      detail: { command: 'client:remove', clientId: CLIENT_ID, actor: 'ops-console' },
    });
    expect((event?.detail as { revoked?: number } | undefined)?.revoked).toBeGreaterThanOrEqual(4);

    expect((await api('DELETE', `/clients/${CLIENT_ID}`)).json()).toMatchObject({
      code: 'not_found',
      message: `no client with the id ${CLIENT_ID}`,
    });
    // What a request under way during the removal could still write under the id (here, another
    // instance that had not heard of it yet): a refresh token and a session's entry.
    await db()
      .insert(oidcPayloads)
      .values([
        { id: 'late-refresh', type: 'RefreshToken', payload: { jti: 'late-refresh', clientId: CLIENT_ID } },
        {
          id: 'late-session',
          type: 'Session',
          payload: {
            jti: 'late-session',
            authorizations: {
              [CLIENT_ID]: { sid: 'late-sid', grantId: 'g1' },
              'another-rp': { sid: 'other-sid', grantId: 'g2' },
            },
          },
        },
      ]);
    // Registered again under the same id, it starts with nothing of the removed one's.
    const again = await api('POST', '/clients', {
      id: CLIENT_ID,
      name: 'Planner',
      redirectUris: [REDIRECT_URI],
    });
    expect(again.statusCode).toBe(201);
    expect(await storedFor(CLIENT_ID)).toEqual([]);
    expect(await sessionsNaming(CLIENT_ID)).toBe(0);
    // The session stays, with its sign-in at the other client.
    const [late] = await db().select().from(oidcPayloads).where(eq(oidcPayloads.id, 'late-session'));
    expect(late?.payload).toEqual({
      jti: 'late-session',
      authorizations: { 'another-rp': { sid: 'other-sid', grantId: 'g2' } },
    });
    expect((await userinfo(tokens.access_token)).statusCode).toBe(401);
    const resumed = await pending.post('/api/login', {
      Username: EMAIL,
      Password: PASSWORD,
      ReturnUrl: begun.returnUrl,
    });
    expect(resumed.json()).toMatchObject({ code: 'interaction_expired' });
  });

  it('is refused while a registered resource server names it, and goes once none does; one naming another client is no bar', async () => {
    expect((await addPublicClient('reports-reader')).statusCode).toBe(201);
    expect((await addPublicClient('other-reader')).statusCode).toBe(201);
    const confidential = await api('POST', '/clients', {
      id: 'reports-introspector',
      name: 'Reports API',
      redirectUris: ['https://introspector.example/cb'],
      secret: 'reports-introspector-secret-0123456789',
    });
    expect(confidential.statusCode).toBe(201);
    const addServer = (identifier: string, fields: Record<string, unknown>) =>
      api('POST', '/resource-servers', { identifier, scopes: ['reports:read'], ...fields });
    expect(
      (await addServer('https://reports.example/api', { clientIds: ['reports-reader'] })).statusCode,
    ).toBe(201);
    expect(
      (await addServer('https://archive.example/api', { clientIds: ['other-reader', 'reports-reader'] }))
        .statusCode,
    ).toBe(201);
    expect(
      (await addServer('https://audit.example/api', { introspectionClientId: 'reports-introspector' }))
        .statusCode,
    ).toBe(201);
    expect((await addServer('https://other.example/api', { clientIds: ['other-reader'] })).statusCode).toBe(
      201,
    );

    const refused = await api('DELETE', '/clients/reports-reader');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'conflict',
      field: 'id',
      message:
        'the resource servers https://archive.example/api, https://reports.example/api name this client: take it out there first (resource:update)',
    });
    const introspector = await api('DELETE', '/clients/reports-introspector');
    expect(introspector.json()).toMatchObject({
      code: 'conflict',
      message:
        'the resource server https://audit.example/api names this client: take it out there first (resource:update)',
    });
    const kept = await db().select().from(oidcClients);
    expect(kept.map((row) => row.clientId)).toEqual(
      expect.arrayContaining(['reports-reader', 'reports-introspector']),
    );

    const serverPath = (identifier: string) => `/resource-servers/${encodeURIComponent(identifier)}`;
    expect(
      (await api('PATCH', serverPath('https://reports.example/api'), { clientIds: null })).statusCode,
    ).toBe(200);
    expect(
      (await api('PATCH', serverPath('https://archive.example/api'), { clientIds: ['other-reader'] }))
        .statusCode,
    ).toBe(200);
    // Still named by https://other.example/api, other-reader is no bar to removing reports-reader.
    expect((await api('DELETE', '/clients/reports-reader')).statusCode).toBe(200);
  });

  it('drops the logout tokens not yet posted to it and sends no browser back to it from a pending sign-out', async () => {
    await api('POST', '/clients', {
      id: 'leaving-rp',
      name: 'Leaving',
      redirectUris: ['https://leaving.example/cb'],
      postLogoutUris: ['https://leaving.example/bye'],
      backchannelLogoutUri: 'https://leaving.example/backchannel',
    });
    const now = new Date();
    await db()
      .insert(backchannelLogouts)
      .values([
        { clientId: 'leaving-rp', accountId: 'a1', sid: 'sid-waiting', createdAt: now, nextAttemptAt: now },
        {
          clientId: 'leaving-rp',
          accountId: 'a1',
          sid: 'sid-sent',
          createdAt: now,
          nextAttemptAt: now,
          deliveredAt: now,
        },
      ]);
    await insertLogoutRequest(
      db(),
      {
        idHash: 'leaving-logout',
        sessionId: 'session-1',
        clientId: 'leaving-rp',
        postLogoutRedirectUri: 'https://leaving.example/bye',
        state: 'st-1',
      },
      10 * 60_000,
    );

    // One the person has gone through already: its page may be loaded again.
    await insertLogoutRequest(
      db(),
      {
        idHash: 'leaving-logout-done',
        sessionId: 'session-2',
        clientId: 'leaving-rp',
        postLogoutRedirectUri: 'https://leaving.example/bye',
        state: 'st-2',
        consumedAt: now,
      },
      10 * 60_000,
    );

    expect((await api('DELETE', '/clients/leaving-rp')).statusCode).toBe(200);

    const tokens = await db()
      .select()
      .from(backchannelLogouts)
      .where(eq(backchannelLogouts.clientId, 'leaving-rp'));
    expect(tokens.map((row) => row.sid)).toEqual(['sid-sent']);
    const [request] = await db()
      .select()
      .from(logoutRequests)
      .where(eq(logoutRequests.idHash, 'leaving-logout'));
    expect(request).toMatchObject({ sessionId: 'session-1', postLogoutRedirectUri: null, state: null });
    const [done] = await db()
      .select()
      .from(logoutRequests)
      .where(eq(logoutRequests.idHash, 'leaving-logout-done'));
    expect(done).toMatchObject({ sessionId: 'session-2', postLogoutRedirectUri: null, state: null });
    const [event] = (await adminEvents(db(), 'client:remove')).filter(
      (row) => (row.detail as { clientId?: string }).clientId === 'leaving-rp',
    );
    expect(event?.detail).toMatchObject({ revoked: 0, unlinked: 0, undelivered: 1, signOuts: 2 });
  });
});

/**
 * Both orders of a removal and a resource server naming the client. On PostgreSQL they run on two
 * connections and only the row locks order them; PGlite runs one transaction at a time, so there the
 * tests show the outcome and only PostgreSQL (`DATABASE_URL`, as CI runs them too) tells a missing lock.
 */
describe('a removal racing a resource server naming the client', () => {
  it('a resource server naming a client that is being removed waits, then refuses the name', async () => {
    expect((await addPublicClient('racer')).statusCode).toBe(201);
    const identifier = 'https://race.example/api';
    expect((await api('POST', '/resource-servers', { identifier, scopes: ['race:read'] })).statusCode).toBe(
      201,
    );
    // A removal that has deleted the row and not committed yet.
    const naming = againstOpenTransaction(
      db(),
      async (tx) => {
        expect(await deleteClient(tx, 'racer')).toBeDefined();
      },
      () => updateResourceServer({ db: db() }, { identifier, clientIds: ['racer'] }),
    );
    await expect(naming).rejects.toThrow(/^no client with the id racer$/);
    const [server] = await db()
      .select()
      .from(oidcResourceServers)
      .where(eq(oidcResourceServers.identifier, identifier));
    expect(server?.clientIds).toBeNull();
  });

  it('a removal of a client that a resource server is naming waits, then refuses', async () => {
    expect((await addPublicClient('racer-2')).statusCode).toBe(201);
    // What resource:add does, held before its commit: the client's row held, the server inserted.
    const removal = await againstOpenTransaction(
      db(),
      async (tx) => {
        expect(await findClientKeyShared(tx, 'racer-2')).toBeDefined();
        await insertResourceServer(tx, {
          identifier: 'https://race2.example/api',
          scopes: ['race:read'],
          accessTokenTtl: 600,
          signingAlg: null,
          clientIds: ['racer-2'],
          introspectionClientId: null,
        });
      },
      () => api('DELETE', '/clients/racer-2'),
    );
    expect(removal.json()).toMatchObject({ code: 'conflict', field: 'id' });
    expect(await db().select().from(oidcClients).where(eq(oidcClients.clientId, 'racer-2'))).toHaveLength(1);
  });
});

describe('admin clients', () => {
  it('are not removed over the admin API, not even its caller; the CLI removes one', async () => {
    const refused = await api('DELETE', '/clients/ops-console');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'conflict',
      field: 'id',
      message: 'an admin client is removed with the admin CLI (client:remove) only',
    });
    expect(await db().select().from(oidcClients).where(eq(oidcClients.clientId, 'ops-console'))).toHaveLength(
      1,
    );
    expect((await api('GET', '/clients/ops-console')).statusCode).toBe(200);

    const added = await runAdmin(
      ['client:add', '--id', 'old-console', '--name', 'Old console', '--admin', '--secret-stdin'],
      { db: db(), stdin: 'old-console-secret-0123456789abcdefgh\n' },
    );
    expect(added.code).toBe(0);
    expect(await runAdmin(['client:remove', '--id', 'old-console'], { db: db() })).toMatchObject({
      code: 0,
      stdout: 'removed client old-console ("Old console")\n',
    });
  });
});

describe('client:remove', () => {
  it('removes a client from the command line, and says so; an unknown id is exit 1', async () => {
    const add = await runAdmin(
      [
        'client:add',
        '--id',
        'cli-leaving',
        '--name',
        'CLI leaving',
        '--redirect-uri',
        'https://cli.example/cb',
      ],
      { db: db() },
    );
    expect(add.code).toBe(0);
    expect(await runAdmin(['client:remove', '--id', 'cli-leaving'], { db: db() })).toMatchObject({
      code: 0,
      stdout: 'removed client cli-leaving ("CLI leaving")\n',
    });
    expect((await authorizationAnswer(app(), 'cli-leaving', 'https://cli.example/cb')).location).toMatch(
      /^\/error\/[0-9A-Z]{8}$/,
    );
    expect(await runAdmin(['client:remove', '--id', 'cli-leaving'], { db: db() })).toMatchObject({
      code: 1,
      stderr: 'admin: no client with the id cli-leaving\n',
    });
  });
});
