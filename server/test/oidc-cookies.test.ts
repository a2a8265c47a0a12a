import { loginResponse } from '@keycard/contract';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
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
