import * as oidc from 'openid-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  authorizationUrl,
  follow,
  ISSUER,
  refusedToRedirectUri,
  relyingParty,
  signInPageOf,
} from './support/authorization-client.ts';
import {
  createAccount,
  REDIRECT_URI,
  registerTestClient,
  resumeToCode,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

const PASSWORD = 'Correct-Horse-42';

const service = useTestService({
  env: { LOCKOUT_THRESHOLD: '3' },
  setUp: async ({ db }) => {
    await registerTestClient(db);
    await createAccount(db, 'ada@example.com', PASSWORD);
    await createAccount(db, 'grace@example.com', PASSWORD, 'Grace Hopper');
    await createAccount(db, 'lin@example.com', PASSWORD, 'Lin Wu');
  },
});
const app = () => service().app;

afterEach(() => {
  vi.restoreAllMocks();
});

/** The relying party sends a browser to the provider; answers where the provider sent it. */
async function authorize(browser: TestBrowser, extra: Record<string, string> = {}) {
  const request = await authorizationUrl(await relyingParty(app()), extra);
  const response = await follow(browser, request.url);
  return { request, response, ...signInPageOf(response.headers.location) };
}

/** A browser with a session of `email` at the provider: it signed in through the SPA's calls. */
async function signedIn(email: string): Promise<TestBrowser> {
  const browser = new TestBrowser(app());
  const { returnUrl } = await authorize(browser);
  await browser.loadSpa();
  const login = await browser.post('/api/login', {
    Username: email,
    Password: PASSWORD,
    ReturnUrl: returnUrl,
  });
  expect(login.json()).toMatchObject({ isAuthenticated: true });
  await resumeToCode(browser, returnUrl);
  return browser;
}

describe('login_hint (OpenID Connect Core §3.1.2.1)', () => {
  it("goes to the sign-in page inside the ReturnUrl, beside the product, without an '&' on the page", async () => {
    const { response, page, returnUrl, carried } = await authorize(new TestBrowser(app()), {
      login_hint: ' ada@example.com ',
    });
    expect(response.statusCode).toBe(303);
    expect(page.pathname).toBe('/');
    expect(page.search).not.toContain('&');
    expect(returnUrl).toMatch(/^\/oidc\/auth\/[\w-]+\?/);
    expect(carried.get('product')).toBe('Planner');
    expect(carried.get('login_hint')).toBe('ada@example.com');
  });

  it('is carried for the page to prefill even when it is no address, but not when overlong', async () => {
    const short = await authorize(new TestBrowser(app()), { login_hint: 'ada' });
    expect(short.carried.get('login_hint')).toBe('ada');
    const long = await authorize(new TestBrowser(app()), { login_hint: `${'a'.repeat(320)}@example.com` });
    expect(long.carried.has('login_hint')).toBe(false);
    expect(long.carried.get('product')).toBe('Planner');
  });

  it('is absent without a hint and without a session', async () => {
    const { carried } = await authorize(new TestBrowser(app()));
    expect([...carried.keys()]).toEqual(['product']);
  });
});

describe('ui_locales', () => {
  it.each([
    ['de', 'de'],
    ['fr-CA de-AT en', 'de'],
    ['en-GB de', 'en'],
  ])('%s → the page is asked for %s', async (uiLocales, language) => {
    const { carried } = await authorize(new TestBrowser(app()), { ui_locales: uiLocales });
    expect(carried.get('ui_locales')).toBe(language);
  });

  it('without a supported language leaves the choice to the browser', async () => {
    const { carried } = await authorize(new TestBrowser(app()), { ui_locales: 'fr it' });
    expect(carried.has('ui_locales')).toBe(false);
  });

  it('writes the reset mail asked for on that sign-in page in that language, whatever the browser says', async () => {
    const german = new TestBrowser(app(), { 'accept-language': 'en-US' });
    const { returnUrl, page } = await authorize(german, { ui_locales: 'fr de' });
    await german.loadSpa();
    const asked = await german.post('/api/forgotpassword', {
      email: 'ada@example.com',
      returnUrl,
      locationSearch: page.search,
    });
    expect(asked.statusCode).toBe(200);
    const [mail] = await service().mails('password_reset', 'ada@example.com');
    expect(mail?.subject).toContain('zurücksetzen');
    // The link keeps the ReturnUrl, so the reset page speaks German too.
    expect(mail?.textBody).toContain('ui_locales%3Dde');

    const english = new TestBrowser(app(), { 'accept-language': 'en-US' });
    const plain = await authorize(english);
    await english.loadSpa();
    await english.post('/api/forgotpassword', { email: 'grace@example.com', returnUrl: plain.returnUrl });
    const [control] = await service().mails('password_reset', 'grace@example.com');
    expect(control?.subject).toContain('Reset');
  });

  it('writes the unlock mail of a lock caused on that sign-in page in that language', async () => {
    const browser = new TestBrowser(app(), { 'accept-language': 'en' });
    const { returnUrl } = await authorize(browser, { ui_locales: 'de' });
    await browser.loadSpa();
    for (let attempt = 0; attempt < 3; attempt++) {
      await browser.post('/api/login', {
        Username: 'lin@example.com',
        Password: 'Wrong-Horse-42',
        ReturnUrl: returnUrl,
      });
    }
    const [mail] = await service().mails('unlock', 'lin@example.com');
    expect(mail?.subject).toContain('gesperrt');
  });
});

describe('prompt=login and max_age keep the e-mail', () => {
  it('prompt=login on a session sends the page the address it signed in with', async () => {
    const browser = await signedIn('ada@example.com');
    const { page, carried } = await authorize(browser, { prompt: 'login' });
    expect(page.pathname).toBe('/');
    expect(carried.get('login_hint')).toBe('ada@example.com');
  });

  it('an expired max_age does the same', async () => {
    const browser = await signedIn('grace@example.com');
    const now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => now + 120_000);
    const { page, carried } = await authorize(browser, { max_age: '60' });
    expect(page.pathname).toBe('/');
    expect(carried.get('login_hint')).toBe('grace@example.com');
  });

  it("a login_hint wins over the session's address", async () => {
    const browser = await signedIn('ada@example.com');
    const { carried } = await authorize(browser, { prompt: 'login', login_hint: 'grace@example.com' });
    expect(carried.get('login_hint')).toBe('grace@example.com');
  });
});

describe('prompt=none', () => {
  it('answers login_required to the redirect URI, with iss (RFC 9207), without a screen', async () => {
    const configuration = await relyingParty(app());
    const { url, verifier, state } = await authorizationUrl(configuration, { prompt: 'none' });
    // The relying party's library checks iss and state, then reports the error.
    const { answer, grant } = await refusedToRedirectUri(app(), configuration, { url, verifier, state });
    await expect(grant).rejects.toMatchObject({ error: 'login_required' });

    const forged = new URL(answer);
    forged.searchParams.set('iss', 'https://elsewhere.example');
    await expect(
      oidc.authorizationCodeGrant(configuration, forged, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      }),
    ).rejects.not.toBeInstanceOf(oidc.AuthorizationResponseError);
  });

  it('with a session signs in silently', async () => {
    const browser = await signedIn('ada@example.com');
    const configuration = await relyingParty(app());
    const { url, state } = await authorizationUrl(configuration, { prompt: 'none' });
    const response = await follow(browser, url);
    const answer = new URL(String(response.headers.location));
    expect(answer.origin + answer.pathname).toBe(REDIRECT_URI);
    expect(answer.searchParams.get('code')).toBeTruthy();
    expect(answer.searchParams.get('state')).toBe(state);
    expect(answer.searchParams.get('iss')).toBe(ISSUER);
  });
});
