import { randomBytes } from 'node:crypto';
import { errorBodySchema } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { csrfHeaders, fetchCsrf } from './support/app.ts';
import { useTestService } from './support/test-service.ts';

const LIMIT = 3;

/** A client address of this test alone, so counts never carry over between tests or runs. */
function freshIp(): string {
  const [a = 1, b = 1, c = 1] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}

function get(app: FastifyInstance, url: string, ip: string) {
  return app.inject({ method: 'GET', url, remoteAddress: ip });
}

async function expectRefused(app: FastifyInstance, url: string, ip: string): Promise<void> {
  const refused = await get(app, url, ip);
  expect(refused.statusCode).toBe(429);
  expect(errorBodySchema.parse(refused.json())).toMatchObject({ code: 'rate_limited' });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(refused.headers['cache-control']).toBe('no-store');
}

/** Every line the app logs, as pino writes it (one JSON object a line). */
const logged: string[] = [];

describe('per-IP request limit (RATE_LIMIT_PER_MINUTE)', () => {
  const service = useTestService({
    env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) },
    logger: { level: 'info', stream: { write: (line: string) => void logged.push(line) } },
  });
  const app = () => service().app;

  it('answers 429 rate_limited with Retry-After once an address used up its minute', async () => {
    const ip = freshIp();
    for (let n = 0; n < LIMIT; n++) expect((await get(app(), '/api/getcsrftoken', ip)).statusCode).toBe(200);
    await expectRefused(app(), '/api/getcsrftoken', ip);
    // Another address is not affected.
    expect((await get(app(), '/api/getcsrftoken', freshIp())).statusCode).toBe(200);
  });

  it('refuses a login over the limit with the seconds to wait, which the sign-in page shows', async () => {
    const ip = freshIp();
    // The token is fetched from another address, so only the logins count against this one.
    const session = await fetchCsrf(app());
    const body = { Username: 'limited@example.com', Password: 'x', ReturnUrl: null };
    const login = () =>
      app().inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: ip,
        headers: csrfHeaders(session),
        payload: body,
      });
    // Whatever they answer (here: no sign-in in progress), each counts against the minute.
    for (let n = 0; n < LIMIT; n++) expect((await login()).statusCode).not.toBe(429);
    const refused = await login();
    expect(refused.statusCode).toBe(429);
    expect(errorBodySchema.parse(refused.json()).code).toBe('rate_limited');
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
  });

  it("counts the provider's protocol endpoints too", async () => {
    const ip = freshIp();
    for (let n = 0; n < LIMIT; n++) {
      expect((await get(app(), '/oidc/.well-known/openid-configuration', ip)).statusCode).toBe(200);
    }
    const refused = await get(app(), '/oidc/.well-known/openid-configuration', ip);
    expect(refused.statusCode).toBe(429);
  });

  it.each([
    ['authorization', '/oidc/auth?client_id=keycard-demo&response_type=code'],
    ['sign-out', '/oidc/session/end'],
  ])(
    "sends a person's browser over the limit at the %s endpoint to the error page, which says how long to wait",
    async (_endpoint, url) => {
      const ip = freshIp();
      for (let n = 0; n < LIMIT; n++) expect((await get(app(), url, ip)).statusCode).not.toBe(429);
      const refused = await get(app(), url, ip);
      expect(refused.statusCode).toBe(303);
      expect(refused.headers['cache-control']).toBe('no-store');
      const location = new URL(String(refused.headers.location), 'http://localhost:3000');
      // The reference of the request's log line, which says why.
      const reference = String(refused.headers['x-request-id']);
      expect(location.pathname).toBe(`/error/${reference}`);
      const lines = logged.map((line) => JSON.parse(line)).filter((line) => line.reference === reference);
      expect(lines).toEqual([
        expect.objectContaining({
          msg: 'protocol request refused',
          reason: 'rate_limited',
          answer: 'error_page',
          endpoint: new URL(url, 'http://localhost:3000').pathname.slice('/oidc'.length),
        }),
      ]);
      expect(location.searchParams.get('reason')).toBe('rate_limited');
      // What is left of the minute's window, which began with this test's first request.
      const wait = Number(location.searchParams.get('wait'));
      expect(wait).toBeGreaterThan(50);
      expect(wait).toBeLessThanOrEqual(60);
    },
  );

  it.each([
    [
      'upstream sign-in start',
      '/api/RedirectToExternalIdentityProvider?externalIdentityProviderGuid=x&returnUrl=/',
    ],
    ['upstream sign-in callback', '/api/ExternalIdentityProviderCallback?state=x&code=y'],
    ['way back', '/api/DefaultRedirect?RedirectUrl=https://planner.example/'],
  ])(
    "sends a person's browser over the limit at the %s navigation to the error page, not JSON",
    async (_step, url) => {
      const ip = freshIp();
      for (let n = 0; n < LIMIT; n++) expect([302, 303]).toContain((await get(app(), url, ip)).statusCode);
      const refused = await get(app(), url, ip);
      expect(refused.statusCode).toBe(303);
      const location = new URL(String(refused.headers.location), 'http://localhost:3000');
      expect(location.pathname).toBe(`/error/${String(refused.headers['x-request-id'])}`);
      expect(location.searchParams.get('reason')).toBe('rate_limited');
      expect(Number(location.searchParams.get('wait'))).toBeGreaterThan(50);
      expect(Number(location.searchParams.get('wait'))).toBeLessThanOrEqual(60);
    },
  );

  it("answers a relying party's call over the limit in OAuth's terms, readable from a browser client's origin", async () => {
    const ip = freshIp();
    const origin = 'https://planner.example';
    const token = () =>
      app().inject({
        method: 'POST',
        url: '/oidc/token',
        remoteAddress: ip,
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=authorization_code&code=unknown&client_id=keycard-demo',
      });
    for (let n = 0; n < LIMIT; n++) expect((await token()).statusCode).not.toBe(429);
    const refused = await token();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: expect.stringMatching(
        /^too many requests from this network; try again in \d+ seconds$/,
      ),
    });
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.headers['access-control-allow-origin']).toBe(origin);
    expect(refused.headers['access-control-expose-headers']).toBe('Retry-After');
    expect(refused.headers.vary).toContain('Origin');
    // A call from no browser origin gets no CORS header, nor does a sandboxed page's "null".
    const plain = await app().inject({ method: 'POST', url: '/oidc/token', remoteAddress: ip });
    expect(plain.statusCode).toBe(429);
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    expect(plain.headers.vary).toContain('Origin');
    const sandboxed = await app().inject({
      method: 'POST',
      url: '/oidc/token',
      remoteAddress: ip,
      headers: { origin: 'null' },
    });
    expect(sandboxed.headers['access-control-allow-origin']).toBeUndefined();
    // The discovery document is every origin's, refused or not; a page of the service is no one's.
    const discovery = await app().inject({
      url: '/oidc/.well-known/openid-configuration',
      remoteAddress: ip,
      headers: { origin: 'null' },
    });
    expect(discovery.statusCode).toBe(429);
    expect(discovery.headers['access-control-allow-origin']).toBe('null');
    const page = await app().inject({ url: '/oidc/session/end', remoteAddress: ip, headers: { origin } });
    expect(page.statusCode).toBe(303);
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    // Nor does a path the provider has no endpoint at.
    const nowhere = await app().inject({ url: '/oidc/nowhere', remoteAddress: ip, headers: { origin } });
    expect(nowhere.statusCode).toBe(429);
    expect(nowhere.headers['access-control-allow-origin']).toBeUndefined();
    expect(nowhere.headers.vary).toBeUndefined();
  });

  it("does not count a browser's CORS preflight, which would hide the call's own answer", async () => {
    const ip = freshIp();
    const preflight = () =>
      app().inject({
        method: 'OPTIONS',
        url: '/oidc/me',
        remoteAddress: ip,
        headers: {
          origin: 'https://planner.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
    for (let n = 0; n < LIMIT + 2; n++) expect((await preflight()).statusCode).toBe(204);
    for (let n = 0; n < LIMIT; n++) expect((await get(app(), '/oidc/me', ip)).statusCode).not.toBe(429);
    expect((await get(app(), '/oidc/me', ip)).statusCode).toBe(429);
  });

  it('never counts the pages and files of the app', async () => {
    const ip = freshIp();
    for (let n = 0; n < LIMIT + 2; n++)
      expect((await get(app(), '/unlock/some-code', ip)).statusCode).toBe(200);
  });
});

// The shared counters of several instances run when a Redis server is configured (the CI's
// production-path pass sets REDIS_URL).
if (process.env.REDIS_URL) {
  describe('per-IP request limit shared through Redis', () => {
    const service = useTestService({
      env: { RATE_LIMIT_PER_MINUTE: String(LIMIT), REDIS_URL: process.env.REDIS_URL },
      instances: 2,
    });
    const first = () => service().instance(0);
    const second = () => service().instance(1);

    it('counts requests to two instances against one limit', async () => {
      const ip = freshIp();
      expect((await get(first(), '/api/getcsrftoken', ip)).statusCode).toBe(200);
      expect((await get(second(), '/api/getcsrftoken', ip)).statusCode).toBe(200);
      expect((await get(first(), '/api/getcsrftoken', ip)).statusCode).toBe(200);
      await expectRefused(second(), '/api/getcsrftoken', ip);
    });
  });
}
