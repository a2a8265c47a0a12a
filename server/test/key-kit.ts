import { errorBodySchema } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/store/database.ts';
import { adminEvents, attemptSignIn } from './admin-api-kit.ts';
import { POST_LOGOUT_URI, redeemCode, resumeToCode, type TestBrowser } from './support/oidc-flow.ts';

/** Helpers of the signing key tests: what /oidc/jwks publishes, ID tokens, and hints at sign-out. */

/** The kids /oidc/jwks publishes, those that sign first. */
export async function publishedKids(app: FastifyInstance): Promise<string[]> {
  const response = await app.inject({ method: 'GET', url: '/oidc/jwks' });
  if (response.statusCode !== 200) throw new Error(`jwks answered ${response.statusCode} ${response.body}`);
  return response.json<{ keys: { kid: string }[] }>().keys.map((key) => key.kid);
}

/** Signs in through the test client in a fresh browser: the browser, which holds the session, and its ID token. */
export async function signInForIdToken(app: FastifyInstance, email: string, password: string) {
  const { browser, auth } = await attemptSignIn(app, email, password);
  const tokens = await redeemCode(app, await resumeToCode(browser, auth.returnUrl), auth.verifier);
  return { browser, idToken: tokens.id_token };
}

/**
 * Whether end-session takes `idToken` as a hint that vouches for ending the browser's session: it
 * signs out without asking (true), or asks the person, as for a hint that does not validate (false).
 */
export async function hintVouches(browser: TestBrowser, idToken: string): Promise<boolean> {
  const query = new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT_URI });
  const end = await browser.get(`/oidc/session/end?${query}`);
  const location = new URL(String(end.headers.location), 'http://localhost:3000');
  if (end.statusCode !== 303 || location.pathname !== '/logout') {
    throw new Error(`end-session answered ${end.statusCode} ${end.headers.location ?? end.body}`);
  }
  const logout = await browser.post('/api/Logout', { logoutId: location.searchParams.get('logoutId') });
  if (logout.statusCode === 200) return true;
  if (logout.statusCode === 409 && errorBodySchema.parse(logout.json()).code === 'confirmation_required') {
    return false;
  }
  throw new Error(`logout answered ${logout.statusCode} ${logout.body}`);
}

/**
 * A field of the audit rows of `command` (keys:rotate, keys:revoke), oldest first: the kids it lists
 * (joined by commas there), sorted.
 */
export async function auditedKids(db: Db, command: string, field: string): Promise<string[][]> {
  return (await adminEvents(db, command)).map((event) => {
    const value = (event.detail as Record<string, unknown> | null)?.[field];
    return typeof value === 'string' && value !== '' ? value.split(',').sort() : [];
  });
}
