import { loginResponse } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import {
  createAccount,
  redeemCode,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/** Every line the app logs, as pino writes it (one JSON object a line). */
const logged: string[] = [];

const service = useTestService({
  logger: { level: 'info', stream: { write: (line: string) => void logged.push(line) } },
  setUp: async ({ db }) => {
    await registerTestClient(db);
    await createAccount(db, 'logged-urls@example.com', 'Correct-Horse-42');
  },
});

function loggedUrls(): string[] {
  return logged.flatMap((line) => {
    const url = (JSON.parse(line) as { req?: { url?: string } }).req?.url;
    return url === undefined ? [] : [url];
  });
}

describe('logged request URLs carry no live identifier', () => {
  it('logs a whole sign-in without its interaction id, state, code or verifier', async () => {
    logged.length = 0;
    const browser = new TestBrowser(service().app);
    const auth = await startAuthorization(browser);
    const uid = /^\/oidc\/auth\/([\w-]+)/.exec(auth.returnUrl)?.[1] ?? '';
    expect(uid).not.toBe('');
    await browser.loadSpa();
    const login = await browser.post('/api/login', {
      Username: 'logged-urls@example.com',
      Password: 'Correct-Horse-42',
      ReturnUrl: auth.returnUrl,
    });
    const { redirectUrl } = loginResponse.parse(login.json());
    const code = await resumeToCode(browser, redirectUrl ?? '');
    await redeemCode(service().app, code, auth.verifier);

    const urls = loggedUrls();
    // The flow was logged: the authorize request, the resume under its redacted id, the token call.
    expect(urls).toEqual(expect.arrayContaining(['/oidc/auth', '/oidc/auth/[redacted]', '/oidc/token']));
    const everything = logged.join('\n');
    for (const secret of [uid, auth.state, code, auth.verifier]) expect(everything).not.toContain(secret);
  });
});

describe('a path the router cannot read', () => {
  it('is logged as a request, without its code, and counted like every answer', async () => {
    logged.length = 0;
    const response = await service().app.inject({ method: 'GET', url: '/resetPassword/1/Live-Code-abc%FF' });
    expect(response.statusCode).toBe(400);
    const lines = logged.map(
      (line) =>
        JSON.parse(line) as { req?: { url?: string }; res?: { statusCode?: number }; responseTime?: number },
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        req: expect.objectContaining({ url: '/resetPassword/[redacted]' }),
        res: { statusCode: 400 },
      }),
    );
    // Timed here, since Fastify times nothing on this path.
    const line = lines.find((each) => each.res?.statusCode === 400);
    expect(line?.responseTime).toBeGreaterThan(0);
    expect(logged.join('\n')).not.toContain('Live-Code');
    const exposition = await service().app.metrics.scrape();
    expect(exposition).toMatch(/keycard_http_request_duration_seconds_count\{[^}]*status="400"[^}]*\} 1/);
  });
});
