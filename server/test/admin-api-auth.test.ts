import { ADMIN_SCOPE, errorBodySchema } from '@keycard/contract';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oidcClients, oidcPayloads } from '../src/store/tables/index.ts';
import {
  ADMIN_CLIENT,
  ADMIN_SECRET,
  adminCall,
  adminToken,
  registerAdminClient,
  registerMachineClient,
  requestToken,
} from './admin-api-kit.ts';
import {
  createAccount,
  redeemCode,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

const MACHINE_SECRET = 'reports-secret-0123456789abcdefghijkl';

const service = useTestService({
  setUp: async ({ db }) => {
    await registerAdminClient(db);
    await registerMachineClient(db, 'reports', MACHINE_SECRET);
  },
});
const app = () => service().app;
const db = () => service().db;

function expectRefusal(
  response: Awaited<ReturnType<typeof adminCall>>,
  status: number,
  code: string,
  challenge: RegExp,
) {
  expect(response.statusCode).toBe(status);
  expect(errorBodySchema.parse(response.json())).toMatchObject({ code });
  expect(response.headers['www-authenticate']).toMatch(challenge);
  expect(response.headers['cache-control']).toBe('no-store');
}

describe('admin API tokens (client credentials of the own provider)', () => {
  it('announces the client_credentials grant in discovery, but not the admin scope no relying party may register', async () => {
    const discovery = (await app().inject({ url: '/oidc/.well-known/openid-configuration' })).json();
    expect(discovery.grant_types_supported).toContain('client_credentials');
    expect(discovery.scopes_supported).not.toContain(ADMIN_SCOPE);
    expect(discovery.token_endpoint).toMatch(/\/oidc\/token$/);
  });

  it('issues the admin client a bearer token with the admin scope, which the API accepts', async () => {
    const token = await adminToken(app());
    expect(token).toMatchObject({ token_type: 'Bearer', scope: ADMIN_SCOPE, expires_in: 600 });
    const account = await createAccount(db(), 'reader@example.com', null);
    const read = await adminCall(app(), token.access_token, 'GET', `/users/${account.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: account.id, email: 'reader@example.com' });
    expect(read.headers['cache-control']).toBe('no-store');
  });

  it('answers 401 without a token, with a malformed header and with an unknown token', async () => {
    expectRefusal(
      await adminCall(app(), undefined, 'GET', '/users?email=a@example.com'),
      401,
      'unauthorized',
      /^Bearer realm="keycard-admin"$/,
    );
    const basic = await app().inject({
      url: '/admin/api/users?email=a@example.com',
      headers: {
        authorization: `Basic ${Buffer.from(`${ADMIN_CLIENT}:${ADMIN_SECRET}`).toString('base64')}`,
      },
    });
    expectRefusal(basic, 401, 'unauthorized', /error="invalid_token"/);
    expectRefusal(
      await adminCall(app(), 'not-a-token', 'GET', '/users?email=a@example.com'),
      401,
      'unauthorized',
      /error="invalid_token"/,
    );
  });

  it('answers 401 once the token has expired or was revoked', async () => {
    const expired = await adminToken(app());
    await db()
      .update(oidcPayloads)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(oidcPayloads.type, 'ClientCredentials'), eq(oidcPayloads.id, expired.access_token)));
    expectRefusal(
      await adminCall(app(), expired.access_token, 'GET', '/users?email=a@example.com'),
      401,
      'unauthorized',
      /invalid_token/,
    );

    const revoked = await adminToken(app());
    const revocation = await app().inject({
      method: 'POST',
      url: '/oidc/token/revocation',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${ADMIN_CLIENT}:${ADMIN_SECRET}`).toString('base64')}`,
      },
      payload: new URLSearchParams({ token: revoked.access_token }).toString(),
    });
    expect(revocation.statusCode).toBe(200);
    expectRefusal(
      await adminCall(app(), revoked.access_token, 'GET', '/users?email=a@example.com'),
      401,
      'unauthorized',
      /invalid_token/,
    );
  });

  it('answers 403 to a token that was not granted the admin scope, even of a client allowed it', async () => {
    await registerAdminClient(db(), 'wide-console', ADMIN_SECRET);
    await db()
      .update(oidcClients)
      .set({ scope: `openid ${ADMIN_SCOPE}` })
      .where(eq(oidcClients.clientId, 'wide-console'));
    const token = await adminToken(app(), { clientId: 'wide-console', scope: 'openid' });
    expect(token.scope).toBe('openid');
    expectRefusal(
      await adminCall(app(), token.access_token, 'GET', '/users?email=a@example.com'),
      403,
      'forbidden',
      /error="insufficient_scope", scope="keycard:admin"/,
    );
  });

  it('never gives the admin scope to another client, and refuses that client’s tokens with 403', async () => {
    const asked = await requestToken(app(), { clientId: 'reports', secret: MACHINE_SECRET });
    expect(asked.statusCode).toBe(400);
    expect(asked.json()).toMatchObject({ error: 'invalid_scope' });
    const own = await adminToken(app(), { clientId: 'reports', secret: MACHINE_SECRET, scope: 'openid' });
    expect(own.scope).toBe('openid');
    expectRefusal(
      await adminCall(app(), own.access_token, 'GET', '/users?email=a@example.com'),
      403,
      'forbidden',
      /insufficient_scope/,
    );
  });

  it('refuses with 403 a token whose client lost the admin scope after it was issued', async () => {
    await registerAdminClient(db(), 'retired-console', ADMIN_SECRET);
    const token = await adminToken(app(), { clientId: 'retired-console' });
    await db()
      .update(oidcClients)
      .set({ scope: 'openid' })
      .where(eq(oidcClients.clientId, 'retired-console'));
    expectRefusal(
      await adminCall(app(), token.access_token, 'GET', '/users?email=a@example.com'),
      403,
      'forbidden',
      /insufficient_scope/,
    );
  });

  it('does not accept a signed-in user’s access token', async () => {
    await registerTestClient(db());
    await createAccount(db(), 'user-token@example.com', 'Correct-Horse-42');
    const browser = new TestBrowser(app());
    // The relying party cannot even ask for the admin scope: it is not among its registered scopes.
    await expect(startAuthorization(browser, { scope: `openid ${ADMIN_SCOPE}` })).rejects.toThrow(
      /invalid_scope/,
    );
    const auth = await startAuthorization(browser);
    await browser.loadSpa();
    const login = await browser.post('/api/login', {
      Username: 'user-token@example.com',
      Password: 'Correct-Horse-42',
      ReturnUrl: auth.returnUrl,
    });
    const code = await resumeToCode(browser, login.json().redirectUrl);
    const tokens = await redeemCode(app(), code, auth.verifier);
    expectRefusal(
      await adminCall(app(), tokens.access_token, 'GET', '/users?email=a@example.com'),
      401,
      'unauthorized',
      /invalid_token/,
    );
  });

  it('checks the token before reading the body, and answers unknown admin paths 404 as JSON', async () => {
    const unauthenticated = await app().inject({
      method: 'POST',
      url: '/admin/api/users',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(unauthenticated.statusCode).toBe(401);
    const { access_token } = await adminToken(app());
    const missing = await adminCall(app(), access_token, 'GET', '/nothing-here');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'not_found', message: 'Not found.' });
    const malformed = await app().inject({
      method: 'POST',
      url: '/admin/api/users',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      payload: '{not json',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'invalid_input', field: 'body' });
  });
});
