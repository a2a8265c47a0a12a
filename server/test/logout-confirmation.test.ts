import { createHash } from 'node:crypto';
import { errorBodySchema, logoutResponse } from '@keycard/contract';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { logoutRequests, oidcPayloads } from '../src/store/tables/index.ts';
import {
  CLIENT_ID,
  createAccount,
  POST_LOGOUT_URI,
  REDIRECT_URI,
  redeemCode,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

// OpenID Connect RP-Initiated Logout 1.0 §2: the OP must ask the person before ending the session
// unless the request carries an ID token of that session; any page can send a browser to end-session.

const service = useTestService({
  setUp: async ({ db }) => {
    await registerTestClient(db);
    await createAccount(db, 'grace@example.com', 'Correct-Horse-42', 'Grace Hopper');
    await createAccount(db, 'mallory@example.com', 'Correct-Horse-43', 'Mallory Mallet');
  },
});
const app = () => service().app;

async function signedInBrowser(email = 'grace@example.com', password = 'Correct-Horse-42') {
  const browser = new TestBrowser(app());
  return { browser, idToken: await signIn(browser, email, password) };
}

async function signIn(browser: TestBrowser, email: string, password: string): Promise<string> {
  const auth = await startAuthorization(browser);
  await browser.loadSpa();
  await browser.post('/api/login', { Username: email, Password: password, ReturnUrl: auth.returnUrl });
  return (await redeemCode(app(), await resumeToCode(browser, auth.returnUrl), auth.verifier)).id_token;
}

/** Opens the end-session endpoint as a page of any site can; answers the SPA page's logoutId. */
async function openEndSession(browser: TestBrowser, params: Record<string, string>): Promise<string> {
  const end = await browser.get(`/oidc/session/end?${new URLSearchParams(params)}`);
  expect(end.statusCode).toBe(303);
  const location = new URL(String(end.headers.location), 'http://localhost:3000');
  expect(location.pathname).toBe('/logout');
  return location.searchParams.get('logoutId') ?? '';
}

async function sessionCount(): Promise<number> {
  const rows = await service().db.select().from(oidcPayloads).where(eq(oidcPayloads.type, 'Session'));
  return rows.length;
}

/** Whether the browser is still signed in: a silent authorization reaches the client with a code. */
async function stillSignedIn(browser: TestBrowser): Promise<boolean> {
  const outcome = await startAuthorization(browser, { prompt: 'none' }).then(
    () => 'interaction',
    (error: Error) => error.message,
  );
  if (/error=login_required/.test(outcome)) return false;
  expect(outcome).toContain(REDIRECT_URI);
  expect(outcome).toMatch(/[?&]code=/);
  return true;
}

async function expectAsked(browser: TestBrowser, logoutId: string): Promise<void> {
  const asked = await browser.post('/api/Logout', { logoutId });
  expect(asked.statusCode).toBe(409);
  expect(errorBodySchema.parse(asked.json()).code).toBe('confirmation_required');
}

describe('a sign-out no valid id_token_hint vouches for asks the person first', () => {
  it('ends nothing with only a client_id until the SPA posts the confirmation, then signs out', async () => {
    const { browser } = await signedInBrowser();
    const sessions = await sessionCount();
    const logoutId = await openEndSession(browser, {
      client_id: CLIENT_ID,
      post_logout_redirect_uri: POST_LOGOUT_URI,
      state: 'st-2',
    });

    await expectAsked(browser, logoutId);
    await expectAsked(browser, logoutId); // asking again changes nothing either
    expect(await sessionCount()).toBe(sessions);
    expect(await stillSignedIn(browser)).toBe(true);

    const confirmed = await browser.post('/api/Logout', { logoutId, confirmed: true });
    expect(confirmed.statusCode).toBe(200);
    expect(logoutResponse.parse(confirmed.json())).toEqual({
      username: 'Grace Hopper',
      postLogoutRedirectUri: `${POST_LOGOUT_URI}?state=st-2`,
    });
    expect(await stillSignedIn(browser)).toBe(false);
    // A reload of the goodbye page (no answer in its query) shows the goodbye again, not the question.
    const reload = await browser.post('/api/Logout', { logoutId });
    expect(reload.statusCode).toBe(200);
  });

  it('refuses a cross-site or token-less POST of the confirmation, and the session stays', async () => {
    const { browser } = await signedInBrowser();
    const logoutId = await openEndSession(browser, { client_id: CLIENT_ID });
    const cookie = browser.jar.header();
    const post = (headers: Record<string, string>) =>
      app().inject({
        method: 'POST',
        url: '/api/Logout',
        payload: { logoutId, confirmed: true },
        headers: { cookie, ...headers },
      });

    const crossSite = await post({ 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect(errorBodySchema.parse(crossSite.json()).code).toBe('cross_site_rejected');
    const noToken = await post({ 'sec-fetch-site': 'same-origin' });
    expect(noToken.statusCode).toBe(403);
    expect(errorBodySchema.parse(noToken.json()).code).toBe('csrf_rejected');
    const wrongToken = await post({ 'sec-fetch-site': 'same-origin', 'x-csrf-token': 'forged' });
    expect(wrongToken.statusCode).toBe(403);
    expect(await stillSignedIn(browser)).toBe(true);
  });

  it("signs out without asking when the hint is this session's own ID token", async () => {
    const { browser, idToken } = await signedInBrowser();
    const logoutId = await openEndSession(browser, {
      id_token_hint: idToken,
      post_logout_redirect_uri: POST_LOGOUT_URI,
    });
    const logout = await browser.post('/api/Logout', { logoutId });
    expect(logout.statusCode).toBe(200);
    expect(logoutResponse.parse(logout.json()).postLogoutRedirectUri).toBe(POST_LOGOUT_URI);
    expect(await stillSignedIn(browser)).toBe(false);
  });

  it("asks when the hint is a valid ID token of another account (an attacker's own)", async () => {
    const { idToken: mallorys } = await signedInBrowser('mallory@example.com', 'Correct-Horse-43');
    const { browser } = await signedInBrowser();
    const logoutId = await openEndSession(browser, { id_token_hint: mallorys });
    await expectAsked(browser, logoutId);
    expect(await stillSignedIn(browser)).toBe(true);
  });

  it('asks when the hint was issued in an earlier session of the same account', async () => {
    const { browser, idToken: earlier } = await signedInBrowser();
    const first = await openEndSession(browser, { id_token_hint: earlier });
    expect((await browser.post('/api/Logout', { logoutId: first })).statusCode).toBe(200);
    await signIn(browser, 'grace@example.com', 'Correct-Horse-42');

    const logoutId = await openEndSession(browser, { id_token_hint: earlier });
    await expectAsked(browser, logoutId);
    expect(await stillSignedIn(browser)).toBe(true);
  });

  it('asks, and sends nobody back, when the hint does not validate (a forged signature)', async () => {
    const { browser, idToken } = await signedInBrowser();
    const [header, payload, signature = ''] = idToken.split('.');
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const logoutId = await openEndSession(browser, {
      id_token_hint: `${header}.${payload}.${flipped}`,
      post_logout_redirect_uri: POST_LOGOUT_URI,
      state: 'st-forged',
    });
    await expectAsked(browser, logoutId);
    expect(await stillSignedIn(browser)).toBe(true);

    const confirmed = await browser.post('/api/Logout', { logoutId, confirmed: true });
    expect(logoutResponse.parse(confirmed.json())).toEqual({
      username: 'Grace Hopper',
      postLogoutRedirectUri: null,
    });
    expect(await stillSignedIn(browser)).toBe(false);
  });
});

describe('a sign-out request lives 10 minutes', () => {
  it('is answered until its 10 minutes are up, and not a moment after', async () => {
    const { browser } = await signedInBrowser();
    const logoutId = await openEndSession(browser, { client_id: CLIENT_ID });
    const { db } = service();
    const stored = eq(logoutRequests.idHash, createHash('sha256').update(logoutId).digest('hex'));
    const [row] = await db
      .select({ left: sql<number>`extract(epoch from ${logoutRequests.expiresAt} - now())::float8` })
      .from(logoutRequests)
      .where(stored);
    // Stored as 600 s from the database's now (the statement that read it ran a moment later).
    expect(row?.left).toBeGreaterThan(599);
    expect(row?.left).toBeLessThanOrEqual(600);

    const expireIn = (when: string) =>
      db.update(logoutRequests).set({ expiresAt: sql`now() + ${sql.raw(when)}` });
    await expireIn("interval '1 second'");
    await expectAsked(browser, logoutId);
    await expireIn("interval '0 seconds'");
    const late = await browser.post('/api/Logout', { logoutId, confirmed: true });
    expect(late.statusCode).toBe(404);
    expect(await stillSignedIn(browser)).toBe(true);
  });
});
