import { errorBodySchema } from '@keycard/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { installErrorHandler } from './error-handler.ts';
import { registerRateLimit } from './rate-limit.ts';

const opened: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

async function limitedApp(perMinute: number, redis?: Redis): Promise<FastifyInstance> {
  const app = Fastify();
  opened.push(app);
  installErrorHandler(app);
  await registerRateLimit(app, { perMinute, ...(redis ? { redis } : {}) });
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

  it('answers rather than fails or refuses while the configured Redis is unreachable', async () => {
    // Nothing listens on port 1; the connection gives up at once instead of queueing commands.
    const redis = new Redis({
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    opened.push({ close: async () => redis.disconnect() });
    const app = await limitedApp(1, redis);
    // Beyond the limit of 1: an in-process count would refuse the second call.
    for (let n = 0; n < 3; n++) expect((await probe(app, '10.9.0.4')).statusCode).toBe(200);
  });
});
