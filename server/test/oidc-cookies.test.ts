import { loginResponse } from '@keycard/contract';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.ts';
import {
  createAccount,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

const PASSWORD = 'Cookie-Rules-2024!';

/** Every Set-Cookie of a whole sign-in, as the browser received them. */
function cookiesOf(responses: LightMyRequestResponse[]) {
  return responses.flatMap((response) => response.cookies).filter((cookie) => cookie.value !== '');
}

describe('provider cookies under https (DESIGN §2 Cookies)', () => {
  // Behind a TLS-terminating proxy, as a production instance on https runs.
  const service = useTestService({
    env: { PUBLIC_URL: 'https://login.example.com', TRUST_PROXY: 'true' },
    setUp: ({ db }) => registerTestClient(db),
  });
  const app = () => service().app;

  it('are HttpOnly, SameSite=Lax and Secure, with __Host- on path / and __Secure- elsewhere', async () => {
    const account = await createAccount(service().db, 'cookie-rules@example.com', PASSWORD);
    const seen: LightMyRequestResponse[] = [];
    const browser = new TestBrowser(app(), { 'x-forwarded-proto': 'https', host: 'login.example.com' });
    const record =
      <A extends unknown[]>(step: (...args: A) => Promise<LightMyRequestResponse>) =>
      async (...args: A) => {
        const response = await step(...args);
        seen.push(response);
        return response;
      };
    browser.get = record(browser.get.bind(browser));
    browser.post = record(browser.post.bind(browser));

    const auth = await startAuthorization(browser);
    await browser.loadSpa();
    const login = await browser.post('/api/login', {
      Username: account.email,
      Password: PASSWORD,
      ReturnUrl: auth.returnUrl,
    });
    expect(loginResponse.parse(login.json())).toMatchObject({ isAuthenticated: true });
    expect(await resumeToCode(browser, auth.returnUrl)).toMatch(/\S{20,}/);

    const cookies = cookiesOf(seen);
    const names = new Set(cookies.map((cookie) => cookie.name));
    for (const name of ['__Host-session', '__Host-interaction', '__Secure-interaction_resume']) {
      expect(names).toContain(name);
    }
    for (const cookie of cookies) {
      expect(cookie, cookie.name).toMatchObject({ httpOnly: true, secure: true });
      expect(cookie.sameSite?.toLowerCase(), cookie.name).toBe('lax');
      expect(cookie.domain, cookie.name).toBeUndefined();
      expect(cookie.name, `${cookie.name} on path ${cookie.path}`).toMatch(
        cookie.path === '/' ? /^__Host-/ : /^__Secure-/,
      );
    }
  });
});

describe('provider cookies across a rotation of COOKIE_SECRETS', () => {
  const service = useTestService({ setUp: ({ db }) => registerTestClient(db) });
  const OLD = 'o'.repeat(32);
  const NEW = 'n'.repeat(32);

  it('a sign-in begun under the old key finishes once the new one signs, and not once the old is gone', async () => {
    const { db } = service();
    const account = await createAccount(db, 'rotation@example.com', PASSWORD);
    const before = await buildTestApp(db, { env: { COOKIE_SECRETS: OLD } });
    const rotated = await buildTestApp(db, { env: { COOKIE_SECRETS: `${NEW},${OLD}` } });
    const dropped = await buildTestApp(db, { env: { COOKIE_SECRETS: NEW } });
    try {
      const begin = async () => {
        const browser = new TestBrowser(before);
        await browser.loadSpa();
        return { browser, auth: await startAuthorization(browser) };
      };
      const login = (browser: TestBrowser, returnUrl: string) =>
        browser.post('/api/login', { Username: account.email, Password: PASSWORD, ReturnUrl: returnUrl });

      const kept = await begin();
      const onRotated = kept.browser.on(rotated);
      const signedIn = await login(onRotated, kept.auth.returnUrl);
      expect(loginResponse.parse(signedIn.json())).toMatchObject({ isAuthenticated: true });
      expect(await resumeToCode(onRotated, kept.auth.returnUrl)).toMatch(/\S{20,}/);

      const lost = await begin();
      const onDropped = lost.browser.on(dropped);
      // A fresh CSRF token from the instance that no longer knows the old key, so only the provider's
      // interaction cookie, signed with the old key, stands between this attempt and a sign-in.
      await onDropped.loadSpa();
      const refused = await login(onDropped, lost.auth.returnUrl);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'interaction_expired' });
    } finally {
      await Promise.all([before.close(), rotated.close(), dropped.close()]);
    }
  });
});
