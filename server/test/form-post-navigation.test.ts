import { logoutResponse } from '@keycard/contract';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { attemptSignIn, signsInSilently } from './admin-api-kit.ts';
import {
  CLIENT_ID,
  claimsOf,
  createAccount,
  POST_LOGOUT_URI,
  REDIRECT_URI,
  redeemCode,
  registerTestClient,
  resumeToCode,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

// OpenID Connect Core §3.1.2.1 and RP-Initiated Logout 1.0 §2: the authorization and end-session
// endpoints take POST as well as GET. A relying party's page posts the form cross-site, so the
// browser sends no SameSite=Lax cookie with it (a real browser's rule, which these requests follow by
// carrying none).

const EMAIL = 'grace@example.com';
const PASSWORD = 'Correct-Horse-42';

/** Every line the app logs, as pino writes it (one JSON object a line). */
const logged: string[] = [];

const service = useTestService({
  logger: { level: 'info', stream: { write: (line: string) => void logged.push(line) } },
  setUp: async ({ db }) => {
    await registerTestClient(db);
    await createAccount(db, EMAIL, PASSWORD, 'Grace Hopper');
  },
});
const app = () => service().app;

/** The relying party's page posts a form to `path`, cross-site: no cookie goes with it. */
function crossSiteForm(path: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
  return app().inject({
    method: 'POST',
    url: path,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
  });
}

/** The log line that says why the POST `response` answered ended on the error page. */
function refusalLine(response: LightMyRequestResponse): Record<string, unknown> | undefined {
  return logged
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((line) => line.reference === response.headers['x-request-id'] && 'endpoint' in line);
}

/** The test client's authorization parameters, PKCE included (no space in any value). */
function authorizationFields(extra: Record<string, string> = {}) {
  return {
    client_id: CLIENT_ID,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'st-form',
    ...extra,
  };
}
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

/** A browser signed in at the relying party, and the ID token the relying party got. */
async function signedInBrowser(): Promise<{ browser: TestBrowser; idToken: string }> {
  const { browser, auth } = await attemptSignIn(app(), EMAIL, PASSWORD);
  const code = await resumeToCode(browser, auth.returnUrl);
  return { browser, idToken: (await redeemCode(app(), code, auth.verifier)).id_token };
}

describe('a form POST to the authorization endpoint', () => {
  it('is the same request as a GET: the browser is sent there, signs in, and the client gets its code', async () => {
    const fields = authorizationFields();
    const posted = await crossSiteForm('/oidc/auth', fields);
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(`/oidc/auth?${new URLSearchParams(fields)}`);
    expect(posted.headers['cache-control']).toBe('no-store');

    const browser = new TestBrowser(app());
    const toSignIn = await browser.get(String(posted.headers.location));
    expect(toSignIn.statusCode).toBe(303);
    const returnUrl = new URL(String(toSignIn.headers.location), 'http://localhost:3000').searchParams.get(
      'ReturnUrl',
    );
    if (returnUrl === null) throw new Error('the provider did not send the browser to sign in');
    await browser.loadSpa();
    await browser.post('/api/login', { Username: EMAIL, Password: PASSWORD, ReturnUrl: returnUrl });
    const tokens = await redeemCode(app(), await resumeToCode(browser, returnUrl), VERIFIER);
    expect(claimsOf(tokens.id_token)).toMatchObject({ aud: CLIENT_ID });
  });

  it('keeps single sign-on: prompt=none posted from the relying party reaches it with a code', async () => {
    const { browser } = await signedInBrowser();
    const posted = await crossSiteForm('/oidc/auth', authorizationFields({ prompt: 'none' }));
    expect(posted.statusCode).toBe(303);
    // The browser follows with a top-level GET, which carries its Lax session cookie.
    const silent = await browser.get(String(posted.headers.location));
    expect(silent.statusCode).toBe(303);
    const back = new URL(String(silent.headers.location));
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe('st-form');
    expect(await redeemCode(app(), back.searchParams.get('code') ?? '', VERIFIER)).toHaveProperty('id_token');
  });

  it('is turned into a GET up to an address of 8192 characters; a longer one ends on the error page', async () => {
    const padded = (length: number) => {
      const fields = authorizationFields({ x_pad: '' });
      const bare = `/oidc/auth?${new URLSearchParams(fields)}`.length;
      return { ...fields, x_pad: 'a'.repeat(length - bare) };
    };
    const longest = await crossSiteForm('/oidc/auth', padded(8192));
    expect(longest.statusCode).toBe(303);
    expect(String(longest.headers.location)).toHaveLength(8192);
    expect(String(longest.headers.location)).toMatch(/^\/oidc\/auth\?/);

    const tooLong = await crossSiteForm('/oidc/auth', padded(8193));
    expect(tooLong.statusCode).toBe(303);
    expect(tooLong.headers.location).toBe(`/error/${tooLong.headers['x-request-id']}`);
    expect(refusalLine(tooLong)).toMatchObject({ endpoint: '/auth', reason: 'too_long' });
    expect(refusalLine(tooLong)?.msg).toMatch(/8192 characters.*pushed/);
  });

  it('sends a POST that is no form to the error page, at either endpoint', async () => {
    for (const url of ['/oidc/auth', '/oidc/session/end', '/oidc/AUTH/']) {
      const posted = await app().inject({
        method: 'POST',
        url,
        payload: JSON.stringify(authorizationFields()),
        headers: { 'content-type': 'application/json' },
      });
      expect(posted.statusCode, url).toBe(303);
      expect(posted.headers.location, url).toBe(`/error/${posted.headers['x-request-id']}`);
      expect(refusalLine(posted), url).toMatchObject({
        endpoint: url === '/oidc/session/end' ? '/session/end' : '/auth',
        reason: 'not_a_form',
        msg: 'a POST to a protocol page must be an application/x-www-form-urlencoded form',
      });
    }
  });

  it('refuses a form with a control character before passing anything on', async () => {
    const posted = await crossSiteForm('/oidc/auth', authorizationFields({ state: 'st\u0000form' }));
    // Not turned into an address carrying it: the error page, with the reference of the log line.
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(`/error/${posted.headers['x-request-id']}`);
  });
});

describe('a form POST to the end-session endpoint', () => {
  it('is the same request as a GET: the ID token of the session signs the person out and back to the client', async () => {
    const { browser, idToken } = await signedInBrowser();
    const fields = { id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT_URI, state: 'st-out' };
    const posted = await crossSiteForm('/oidc/session/end', fields);
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(`/oidc/session/end?${new URLSearchParams(fields)}`);

    const end = await browser.get(String(posted.headers.location));
    expect(end.statusCode).toBe(303);
    const page = new URL(String(end.headers.location), 'http://localhost:3000');
    expect(page.pathname).toBe('/logout');
    const confirmed = await browser.post('/api/Logout', { logoutId: page.searchParams.get('logoutId') });
    expect(confirmed.statusCode).toBe(200);
    expect(logoutResponse.parse(confirmed.json())).toEqual({
      username: 'Grace Hopper',
      postLogoutRedirectUri: `${POST_LOGOUT_URI}?state=st-out`,
    });
    expect(await signsInSilently(browser)).toBe(false);
  });
});
