import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../src/store/tables/index.ts';
import { apiClient } from './recovery-kit.ts';
import { buildTestApp, productionEnv } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';

// TRUST_PROXY counts the proxies in front of the service, each of which appends the address it was
// reached from to X-Forwarded-For. Only those entries are believed; what a client writes itself lies
// to their left and must never become its address for the per-IP limits or the audit log.

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

/** The load balancer every request below arrives from. */
const PROXY = '10.0.0.2';

/** The address a reset_request was audited under, for a forgot-password call with this X-Forwarded-For. */
async function auditedAddress(app: FastifyInstance, forwardedFor: string): Promise<string | null> {
  const email = `proxied-${forwardedFor.replace(/\W+/g, '-')}@example.com`;
  const api = await apiClient(app);
  const response = await api.post(
    '/api/forgotpassword',
    { email, returnUrl: null, locationSearch: '' },
    { ip: PROXY, headers: { 'x-forwarded-for': forwardedFor } },
  );
  expect(response.statusCode).toBe(200);
  const rows = await testDb()
    .db.select({ ip: auditEvents.ip })
    .from(auditEvents)
    .where(eq(auditEvents.event, 'reset_request'))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  return rows[0]?.ip ?? null;
}

describe('TRUST_PROXY=true: the one proxy in front is believed, and only it', () => {
  it('counts requests whose client-written X-Forwarded-For differs against the address the proxy added', async () => {
    const app = await appWith({ TRUST_PROXY: 'true', RATE_LIMIT_PER_MINUTE: '2' });
    const call = (forwardedFor: string) =>
      app.inject({
        method: 'GET',
        url: '/api/getcsrftoken',
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': forwardedFor },
      });
    expect((await call('203.0.113.1, 198.51.100.7')).statusCode).toBe(200);
    expect((await call('203.0.113.2, 198.51.100.7')).statusCode).toBe(200);
    // The third request of 198.51.100.7 in the minute, over the limit of 2, whatever it claims.
    expect((await call('203.0.113.3, 198.51.100.7')).statusCode).toBe(429);
    // Another client behind the same proxy has a count of its own.
    expect((await call('203.0.113.1, 198.51.100.8')).statusCode).toBe(200);
  });

  it('audits the address the proxy added, not the one the client wrote', async () => {
    const app = await appWith({ TRUST_PROXY: 'true' });
    expect(await auditedAddress(app, '203.0.113.4, 198.51.100.20')).toBe('198.51.100.20');
  });
});

describe('TRUST_PROXY=2: a CDN in front of the load balancer', () => {
  it("audits the entry the CDN added, second from the right, not the client's own", async () => {
    const app = await appWith({ TRUST_PROXY: '2' });
    expect(await auditedAddress(app, '203.0.113.5, 198.51.100.21, 10.1.0.3')).toBe('198.51.100.21');
  });
});

describe('TRUST_PROXY=false (the default): no forwarded header is believed', () => {
  it('audits and counts the address the request came from', async () => {
    const app = await appWith({ RATE_LIMIT_PER_MINUTE: '2' });
    expect(await auditedAddress(app, '198.51.100.22')).toBe(PROXY);
    const call = (forwardedFor: string) =>
      app.inject({
        method: 'GET',
        url: '/api/getcsrftoken',
        remoteAddress: '10.0.0.3',
        headers: { 'x-forwarded-for': forwardedFor },
      });
    expect((await call('198.51.100.23')).statusCode).toBe(200);
    expect((await call('198.51.100.24')).statusCode).toBe(200);
    // The third request of 10.0.0.3 in the minute, over the limit of 2.
    expect((await call('198.51.100.25')).statusCode).toBe(429);
  });
});

describe("the provider's URLs follow the host and scheme the host check passed", () => {
  /** The endpoints discovery lists, as the provider built them for a request with these headers. */
  async function discoveredEndpoints(app: FastifyInstance, headers: Record<string, string>) {
    const response = await app.inject({
      method: 'GET',
      url: '/oidc/.well-known/openid-configuration',
      remoteAddress: PROXY,
      headers,
    });
    expect(response.statusCode).toBe(200);
    const document = response.json<Record<string, unknown>>();
    return Object.entries(document).filter(([name]) => name.endsWith('_endpoint') || name === 'jwks_uri');
  }

  it('cannot be moved to another host by a multi-valued X-Forwarded-Host behind TRUST_PROXY=true', async () => {
    const app = await appWith(productionEnv({ TRUST_PROXY: 'true' }));
    const endpoints = await discoveredEndpoints(app, {
      host: '10.0.0.9',
      'x-forwarded-host': 'evil.example, login.example.test',
      'x-forwarded-proto': 'http, https',
    });
    expect(endpoints.length).toBeGreaterThan(3);
    for (const [name, url] of endpoints)
      expect(String(url), name).toMatch(/^https:\/\/login\.example\.test\//);
  });

  it('reads no forwarded header without TRUST_PROXY', async () => {
    const app = await appWith(productionEnv());
    const endpoints = await discoveredEndpoints(app, {
      host: 'login.example.test',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(endpoints.length).toBeGreaterThan(3);
    // The service speaks plain HTTP itself: without a believed proxy there is no https to speak of.
    for (const [name, url] of endpoints)
      expect(String(url), name).toMatch(/^http:\/\/login\.example\.test\//);
  });
});
