import { errorBodySchema } from '@keycard/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { silentRedis } from '../../test/support/silent-redis.ts';
import { openSharedCounters, type SharedCounters } from '../store/redis.ts';
import { installErrorHandler } from './error-handler.ts';
import { isProtocolPreflight, registerRateLimit } from './rate-limit.ts';

const opened: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

async function limitedApp(perMinute: number, shared?: SharedCounters): Promise<FastifyInstance> {
  const app = Fastify();
  opened.push(app);
  installErrorHandler(app);
  await registerRateLimit(app, { perMinute, ...(shared ? { shared } : {}) });
  app.get('/api/probe', async () => ({ ok: true }));
  return app;
}

const probe = (app: FastifyInstance, ip: string) =>
  app.inject({ method: 'GET', url: '/api/probe', remoteAddress: ip });

describe('registerRateLimit', () => {
  it('says in its refusal how long to wait, from the window of one minute', async () => {
    const app = await limitedApp(1);
    expect((await probe(app, '10.9.0.1')).statusCode).toBe(200);
    const refused = await probe(app, '10.9.0.1');
    expect(refused.statusCode).toBe(429);
    const body = errorBodySchema.parse(refused.json());
    expect(body.code).toBe('rate_limited');
    expect(body.message).toBe('Too many requests; try again in 1 minute.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(55);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('counts each client address on its own', async () => {
    const app = await limitedApp(1);
    expect((await probe(app, '10.9.0.2')).statusCode).toBe(200);
    expect((await probe(app, '10.9.0.3')).statusCode).toBe(200);
    expect((await probe(app, '10.9.0.2')).statusCode).toBe(429);
  });

  it('counts an IPv6 client by its /64, which it may send from any address of', async () => {
    const app = await limitedApp(2);
    expect((await probe(app, '2001:db8:1:2::a')).statusCode).toBe(200);
    expect((await probe(app, '2001:db8:1:2:dead:beef:0:1')).statusCode).toBe(200);
    expect((await probe(app, '2001:db8:1:2:ffff::7')).statusCode).toBe(429);
    expect((await probe(app, '2001:db8:1:3::a')).statusCode).toBe(200);
  });

  /** The connection of REDIS_URL `url`, whose warnings are kept. */
  function sharedCounters(url: string) {
    const warnings: string[] = [];
    const log = { warn: (_fields: object, message: string) => void warnings.push(message), info: () => {} };
    const shared = openSharedCounters(url, log);
    opened.push(shared);
    return { shared, warnings };
  }

  it('counts in this process while the configured Redis refuses connections, and logs it', async () => {
    // Nothing listens on port 1.
    const { shared, warnings } = sharedCounters('redis://127.0.0.1:1');
    const app = await limitedApp(1, shared);
    expect((await probe(app, '10.9.0.4')).statusCode).toBe(200);
    // The limit of 1 still holds, in this instance.
    expect((await probe(app, '10.9.0.4')).statusCode).toBe(429);
    expect((await probe(app, '10.9.0.5')).statusCode).toBe(200);
    expect(warnings).toEqual([
      'Redis is unavailable: rate-limit counters are kept in this process until it is back',
    ]);
  });

  it('counts in this process at once while Redis takes the connection and never answers its handshake', async () => {
    const silent = await silentRedis();
    opened.push(silent);
    const { shared, warnings } = sharedCounters(silent.url);
    const app = await limitedApp(1, shared);
    expect((await probe(app, '10.9.0.6')).statusCode).toBe(200);
    expect((await probe(app, '10.9.0.6')).statusCode).toBe(429);
    expect(warnings).toHaveLength(1);
  });

  it('reads a count without counting in this process too while Redis is away', async () => {
    const { shared } = sharedCounters('redis://127.0.0.1:1');
    const app = await limitedApp(2, shared);
    const peek = app.createRateLimit();
    app.get('/api/peek', { config: { rateLimit: false } }, async (request) =>
      peek(request, { increment: false }),
    );
    const peekFrom = async (ip: string) =>
      (await app.inject({ method: 'GET', url: '/api/peek', remoteAddress: ip })).json();
    expect((await probe(app, '10.9.0.7')).statusCode).toBe(200);
    // One request of two counted, and reading counts nothing.
    expect(await peekFrom('10.9.0.7')).toMatchObject({ remaining: 1, isExceeded: false });
    expect(await peekFrom('10.9.0.7')).toMatchObject({ remaining: 1, isExceeded: false });
    expect((await probe(app, '10.9.0.7')).statusCode).toBe(200);
    expect(await peekFrom('10.9.0.7')).toMatchObject({ remaining: 0 });
    expect((await probe(app, '10.9.0.7')).statusCode).toBe(429);
  });
});

describe('isProtocolPreflight', () => {
  const preflight = (
    url: string,
    headers: Record<string, string> = { 'access-control-request-method': 'POST' },
  ) =>
    isProtocolPreflight({ method: 'OPTIONS', url, headers } as unknown as Parameters<
      typeof isProtocolPreflight
    >[0]);

  it('is a CORS preflight of a provider endpoint that answers across origins', () => {
    expect(preflight('/oidc/token')).toBe(true);
    expect(preflight('/oidc/me?x=1')).toBe(true);
    expect(preflight('/oidc/.well-known/openid-configuration')).toBe(true);
  });

  it('is no other OPTIONS request, which is counted like any request', () => {
    expect(preflight('/oidc/token', {})).toBe(false);
    expect(preflight('/oidc/auth')).toBe(false);
    expect(preflight('/oidc/nowhere')).toBe(false);
    expect(preflight('/api/login')).toBe(false);
    expect(preflight('/admin/api/users')).toBe(false);
    expect(
      isProtocolPreflight({
        method: 'POST',
        url: '/oidc/token',
        headers: { 'access-control-request-method': 'POST' },
      } as unknown as Parameters<typeof isProtocolPreflight>[0]),
    ).toBe(false);
  });
});
