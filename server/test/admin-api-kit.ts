import { ADMIN_SCOPE, loginResponse } from '@keycard/contract';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { addClient } from '../src/provisioning/client-operations.ts';
import type { Db } from '../src/store/database.ts';
import { auditEvents } from '../src/store/tables/index.ts';
import { resumeToCode, startAuthorization, TestBrowser } from './support/oidc-flow.ts';
import { type TestServiceOptions, useTestService } from './support/test-service.ts';

/** Helpers of the admin API tests: admin clients, client-credentials tokens and calls with them. */

export const ADMIN_CLIENT = 'ops-console';
export const ADMIN_SECRET = 'ops-console-secret-0123456789abcdefgh';

/** Registers a client of the admin API as `client:add --admin` does. */
export async function registerAdminClient(db: Db, clientId = ADMIN_CLIENT, secret = ADMIN_SECRET) {
  await addClient({ db }, { id: clientId, name: 'Ops console', redirectUris: [], secret, admin: true });
}

/** A confidential client that may use client credentials but was never given the admin scope. */
export async function registerMachineClient(db: Db, clientId: string, secret: string): Promise<void> {
  // Only scopes the provider declares may be registered; this one carries no admin right.
  await addClient(
    { db },
    { id: clientId, name: 'Reports', secret, grantTypes: ['client_credentials'], scopes: ['openid'] },
  );
}

/** POST /oidc/token with client_secret_basic and grant_type=client_credentials. */
export function requestToken(
  app: FastifyInstance,
  { clientId = ADMIN_CLIENT, secret = ADMIN_SECRET, scope = ADMIN_SCOPE as string | undefined } = {},
): Promise<LightMyRequestResponse> {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (scope !== undefined) form.set('scope', scope);
  return app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`,
    },
    payload: form.toString(),
  });
}

/** An access token of the admin client with the admin scope. */
export async function adminToken(app: FastifyInstance, options?: Parameters<typeof requestToken>[1]) {
  const response = await requestToken(app, options);
  if (response.statusCode !== 200) throw new Error(`token answered ${response.statusCode} ${response.body}`);
  return response.json<{ access_token: string; scope?: string; token_type: string; expires_in: number }>();
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Calls /admin/api with a bearer token. */
export function adminCall(
  app: FastifyInstance,
  token: string | undefined,
  method: Method,
  path: string,
  payload?: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `/admin/api${path}`,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload }),
  });
}

export type AdminCaller = (
  method: Method,
  path: string,
  payload?: Record<string, unknown>,
) => Promise<LightMyRequestResponse>;

/** A bound caller: `api('POST', '/users', {...})`. */
export async function adminClientOf(app: FastifyInstance): Promise<AdminCaller> {
  const { access_token } = await adminToken(app);
  return (method, path, payload) => adminCall(app, access_token, method, path, payload);
}

/**
 * The test service of a file that calls the admin API: its admin client registered after `setUp`,
 * and `api` calling with that client's token.
 */
export function useAdminApi({ setUp, ...options }: TestServiceOptions = {}) {
  let caller: AdminCaller | undefined;
  const service = useTestService({
    ...options,
    setUp: async (current) => {
      await setUp?.(current);
      await registerAdminClient(current.db);
      caller = await adminClientOf(current.app);
    },
  });
  const api: AdminCaller = (method, path, payload) => {
    if (!caller) throw new Error('the admin API caller is only available inside tests');
    return caller(method, path, payload);
  };
  return { service, api };
}

/** One sign-in through the login policy as the SPA does (DESIGN §1), in a fresh browser. */
export async function attemptSignIn(app: FastifyInstance, email: string, password: string) {
  const browser = new TestBrowser(app);
  const auth = await startAuthorization(browser);
  await browser.loadSpa();
  const login = await browser.post('/api/login', {
    Username: email,
    Password: password,
    ReturnUrl: auth.returnUrl,
  });
  if (login.statusCode !== 200) throw new Error(`login answered ${login.statusCode} ${login.body}`);
  return { browser, auth, body: loginResponse.parse(login.json()) };
}

/** Signs in through the login policy as the SPA does (DESIGN §1); answers /api/login's body. */
export async function signIn(app: FastifyInstance, email: string, password: string) {
  return (await attemptSignIn(app, email, password)).body;
}

/** A browser that signed in at the relying party, so it holds a provider session. */
export async function signedInBrowser(app: FastifyInstance, email: string, password: string) {
  const { browser, auth, body } = await attemptSignIn(app, email, password);
  if (!body.isAuthenticated) throw new Error(`${email} did not sign in`);
  await resumeToCode(browser, auth.returnUrl);
  return browser;
}

/**
 * Whether the relying party's next authorization request gets a code without a sign-in (single
 * sign-on from the browser's session) or is sent to the sign-in page.
 */
export async function signsInSilently(browser: TestBrowser): Promise<boolean> {
  try {
    await startAuthorization(browser);
    return false;
  } catch (error) {
    if (String(error).includes('no ReturnUrl')) return true;
    throw error;
  }
}

/** The admin audit events of one command, oldest first. */
export async function adminEvents(db: Db, command: string) {
  const rows = await db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.event, 'admin'))
    .orderBy(asc(auditEvents.id));
  return rows.filter((row) => (row.detail as Record<string, unknown> | null)?.command === command);
}

/** Whether the provider accepts an authorization request of `clientId` to `redirectUri` (sends it to sign in). */
export async function authorizationAnswer(app: FastifyInstance, clientId: string, redirectUri: string) {
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
  const response = await new TestBrowser(app).get(`/oidc/auth?${query}`);
  return { status: response.statusCode, location: String(response.headers.location ?? '') };
}
