import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  authorizationRequest,
  CLIENT_ID,
  createAccount,
  POST_LOGOUT_URI,
  REDIRECT_URI,
  RP,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

const PASSWORD = 'Correct-Horse-42';

const service = useTestService({
  setUp: async ({ db }) => {
    await registerTestClient(db);
    await createAccount(db, 'grace@example.com', PASSWORD, 'Grace Hopper');
    await createAccount(db, 'ada@example.com', PASSWORD, 'Ada Lovelace');
  },
});
const app = () => service().app;

function formAction(response: LightMyRequestResponse): string | undefined {
  const policy = String(response.headers['content-security-policy'] ?? '');
  return /(?:^|;)\s*form-action ([^;]*)/.exec(policy)?.[1];
}

/** The browser signs in as `email` for an authorization request with `extra`; answers its ReturnUrl. */
async function signIn(browser: TestBrowser, email: string, extra: Record<string, string> = {}) {
  const { returnUrl } = await startAuthorization(browser, extra);
  await browser.loadSpa();
  const login = await browser.post('/api/login', {
    Username: email,
    Password: PASSWORD,
    ReturnUrl: returnUrl,
  });
  expect(login.statusCode).toBe(200);
  return returnUrl;
}

function endSession(browser: TestBrowser, params: Record<string, string>) {
  return browser.get(`/oidc/session/end?${new URLSearchParams({ client_id: CLIENT_ID, ...params })}`);
}

describe("the form-action of the provider's form pages (DESIGN §2 Headers)", () => {
  it("allows the client's origin on the form_post page, which posts the code there", async () => {
    const browser = new TestBrowser(app());
    const page = await browser.get(
      await signIn(browser, 'grace@example.com', { response_mode: 'form_post' }),
    );
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`action="${REDIRECT_URI}"`);
    expect(formAction(page)).toBe(`'self' ${RP}`);
    // The provider's hash for the page's submitting script stays.
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
  });

  it("allows the client's origin on a refusal posted to it", async () => {
    const { path } = authorizationRequest({ response_mode: 'form_post', prompt: 'none' });
    const page = await new TestBrowser(app()).get(path);
    expect(page.body).toContain('name="error" value="login_required"');
    expect(formAction(page)).toBe(`'self' ${RP}`);
  });

  it("allows the client's origin on a refusal raised before the provider's own redirect check, once the URI is registered", async () => {
    // `registration` is refused early in the provider's authorization steps, before the step that
    // checks redirect_uri; the error handler checks it itself before it posts the refusal there.
    const early = { response_mode: 'form_post', registration: '{}' };
    const page = await new TestBrowser(app()).get(authorizationRequest(early).path);
    expect(page.body).toContain('name="error" value="registration_not_supported"');
    expect(formAction(page)).toBe(`'self' ${RP}`);
    const unregistered = await new TestBrowser(app()).get(
      authorizationRequest({ ...early, redirect_uri: 'https://elsewhere.example/cb' }).path,
    );
    expect(unregistered.statusCode).toBe(303);
    expect(formAction(unregistered)).toBe("'self'");
  });

  it("allows the client's origin on the page that ends another account's session before the redirect to it", async () => {
    const browser = new TestBrowser(app());
    await resumeToCode(browser, await signIn(browser, 'grace@example.com'));
    const page = await browser.get(await signIn(browser, 'ada@example.com', { prompt: 'login' }));
    expect(page.body).toMatch(/action="[^"]*\/oidc\/session\/end\/confirm"/);
    expect(formAction(page)).toBe(`'self' ${RP}`);
  });

  it('allows the origin of the registered post-logout URI on the sign-out page of a browser without a session', async () => {
    const page = await endSession(new TestBrowser(app()), { post_logout_redirect_uri: POST_LOGOUT_URI });
    expect(page.body).toMatch(/action="[^"]*\/oidc\/session\/end\/confirm"/);
    expect(formAction(page)).toBe(`'self' ${RP}`);
  });

  it('adds nothing for an unregistered redirect, nor to a page that sends the browser nowhere else', async () => {
    const browser = new TestBrowser(app());
    const answers = [
      await endSession(browser, { post_logout_redirect_uri: 'https://elsewhere.example/signed-out' }),
      await endSession(browser, {}),
      await browser.get(
        authorizationRequest({ redirect_uri: 'https://elsewhere.example/cb', response_mode: 'form_post' })
          .path,
      ),
      await browser.get('/'),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 303, 200]);
    for (const answer of answers) expect(formAction(answer)).toBe("'self'");
  });
});
