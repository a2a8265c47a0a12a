import { errorBodySchema } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, productionEnv } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';

const testDb = useTestDatabase();
const opened: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of opened.splice(0)) await app.close();
});

async function appWith(env: NodeJS.ProcessEnv): Promise<FastifyInstance> {
  const app = await buildTestApp(testDb().db, { env });
  opened.push(app);
  return app;
}

const URLS = [
  '/api/getcsrftoken',
  '/oidc/.well-known/openid-configuration',
  '/',
  '/unlock/some-code',
  // A navigation, whose other refusals go to the error page (navigation-errors.ts).
  '/api/DefaultRedirect',
];

async function expectMisdirected(app: FastifyInstance, host: string, url: string): Promise<void> {
  const response = await app.inject({ method: 'GET', url, headers: { host } });
  expect(response.statusCode, `${host} ${url}`).toBe(421);
  expect(errorBodySchema.parse(response.json())).toEqual({
    code: 'misdirected_request',
    message: 'This service does not answer for that host name.',
  });
}

describe('Host allow-list in production: PUBLIC_URL and PUBLIC_HOST_ALIASES', () => {
  it("answers for PUBLIC_URL's name, with or without a port and in any case", async () => {
    const app = await appWith(productionEnv({ PUBLIC_HOST_ALIASES: '10.0.0.5,keycard.internal' }));
    for (const host of ['login.example.test', 'LOGIN.example.test:443', 'login.example.test.']) {
      const response = await app.inject({
        method: 'GET',
        url: '/oidc/.well-known/openid-configuration',
        headers: { host },
      });
      expect(response.statusCode, host).toBe(200);
    }
  });

  it('answers for each alias, e.g. the address a load balancer probes by', async () => {
    const app = await appWith(productionEnv({ PUBLIC_HOST_ALIASES: '10.0.0.5,keycard.internal' }));
    for (const host of ['10.0.0.5:3000', 'keycard.internal']) {
      const response = await app.inject({ method: 'GET', url: '/api/getcsrftoken', headers: { host } });
      expect(response.statusCode, host).toBe(200);
    }
  });

  it('answers 421 for any other name, loopback ones included, on every kind of route', async () => {
    const app = await appWith(productionEnv({ PUBLIC_HOST_ALIASES: '10.0.0.5,keycard.internal' }));
    for (const host of [
      'evil.example',
      'login.example.test.evil.example',
      'localhost:3000',
      '127.0.0.1',
      '10.0.0.6',
    ]) {
      for (const url of URLS) await expectMisdirected(app, host, url);
    }
  });

  it('answers 421, not a 500, on calls whose contract entry lists their errors', async () => {
    const app = await appWith(productionEnv({ PUBLIC_HOST_ALIASES: '10.0.0.5,keycard.internal' }));
    for (const url of ['/api/login', '/admin/api/users']) {
      const response = await app.inject({
        method: 'POST',
        url,
        headers: { host: 'evil.example' },
        payload: {},
      });
      expect(response.statusCode, url).toBe(421);
      expect(errorBodySchema.parse(response.json()).code).toBe('misdirected_request');
    }
  });

  it('answers 421 for a Host header that names no host', async () => {
    const app = await appWith(productionEnv({ PUBLIC_HOST_ALIASES: '10.0.0.5,keycard.internal' }));
    for (const host of ['login.example.test/path', 'user@login.example.test', 'login.example.test:99999']) {
      await expectMisdirected(app, host, '/api/getcsrftoken');
    }
  });

  it('reads the forwarded name behind a trusted proxy, and only there', async () => {
    const trusting = await appWith({
      ...productionEnv({ PUBLIC_HOST_ALIASES: '10.0.0.5,keycard.internal' }),
      TRUST_PROXY: 'true',
    });
    const forwarded = (host: string) => ({ host: '10.0.0.9', 'x-forwarded-host': host });
    const ok = await trusting.inject({
      method: 'GET',
      url: '/api/getcsrftoken',
      headers: forwarded('login.example.test'),
    });
    expect(ok.statusCode).toBe(200);
    const refused = await trusting.inject({
      method: 'GET',
      url: '/api/getcsrftoken',
      headers: forwarded('evil.example'),
    });
    expect(refused.statusCode).toBe(421);

    const direct = await appWith(productionEnv({ PUBLIC_HOST_ALIASES: '10.0.0.5,keycard.internal' }));
    const ignored = await direct.inject({
      method: 'GET',
      url: '/api/getcsrftoken',
      headers: { host: 'evil.example', 'x-forwarded-host': 'login.example.test' },
    });
    expect(ignored.statusCode).toBe(421);
  });
});

describe('Host allow-list in development', () => {
  it('answers for PUBLIC_URL, its aliases and any loopback name on any port', async () => {
    const app = await appWith({ PUBLIC_URL: 'http://keycard.test:3000', PUBLIC_HOST_ALIASES: 'dev-box.lan' });
    for (const host of [
      'keycard.test:3000',
      'dev-box.lan:8080',
      'localhost:5173',
      '127.0.0.1:3000',
      '[::1]:3000',
      'app.localhost',
    ]) {
      const response = await app.inject({ method: 'GET', url: '/api/getcsrftoken', headers: { host } });
      expect(response.statusCode, host).toBe(200);
    }
  });

  it('answers 421 for another name, as a DNS-rebinding page would send', async () => {
    const app = await appWith({ PUBLIC_URL: 'http://localhost:3000' });
    for (const url of URLS) await expectMisdirected(app, 'rebind.attacker.example:3000', url);
    await expectMisdirected(app, '192.168.1.20:3000', '/dev/mail');
  });
});
