import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { REQUEST_LIMIT_PREFIX } from '../src/http/rate-limit.ts';
import { type ApiClient, apiClient, STRONG } from './recovery-kit.ts';
import { createAccount } from './support/oidc-flow.ts';
import { freezingProxy } from './support/redis-proxy.ts';
import { silentRedis } from './support/silent-redis.ts';
import { useTestService } from './support/test-service.ts';

/**
 * DESIGN §5: Redis holds only short-lived counters. While it is away, every instance answers as
 * usual and keeps the limits in its own process (store/redis.ts), instead of failing recovery calls
 * or making every request wait for as long as a dead connection stays open.
 */

const ADA = 'ada.outage@example.com';

/** A client address of this test alone: Redis keeps counts between runs, for their minute. */
function freshIp(): string {
  const [a = 1, b = 1, c = 1] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}

function csrfToken(app: FastifyInstance, ip: string) {
  return app.inject({ method: 'GET', url: '/api/getcsrftoken', remoteAddress: ip });
}

const silent = await silentRedis();

describe('with a Redis that takes connections and never answers', () => {
  let api: ApiClient;
  const service = useTestService({
    env: { REDIS_URL: silent.url, FORGOT_PASSWORD_PER_ADDRESS: '3', RATE_LIMIT_PER_MINUTE: '2' },
    setUp: async ({ app, db }) => {
      api = await apiClient(app);
      await createAccount(db, ADA, STRONG, 'Ada Lovelace');
    },
    tearDown: () => silent.close(),
  });

  it('answers, and keeps the request limit of 2 a minute in this process', async () => {
    const ip = freshIp();
    expect((await csrfToken(service().app, ip)).statusCode).toBe(200);
    expect((await csrfToken(service().app, ip)).statusCode).toBe(200);
    expect((await csrfToken(service().app, ip)).statusCode).toBe(429);
  });

  it('mails a reset as usual, and keeps the limit of 3 reset mails per address', async () => {
    const answers = [];
    for (let n = 0; n < 4; n++) {
      const answer = await api.post('/api/forgotpassword', {
        email: ADA,
        returnUrl: null,
        locationSearch: '',
      });
      answers.push([answer.statusCode, answer.body]);
    }
    // Four equal answers (DESIGN §2 Forgot password), three mails.
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]?.[0]).toBe(200);
    expect(await service().mails('password_reset', ADA)).toHaveLength(3);
  });

  it("answers a link's check as usual, counting wrong codes in this process", async () => {
    const check = await api.post('/api/CheckVerification', {
      verificationCode: 'no-such-code',
      verificationType: 1,
    });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toEqual({ isValid: false, userName: null });
  });
});

// A real Redis to stop: the production-path pass sets REDIS_URL.
const redisUrl = process.env.REDIS_URL;
if (redisUrl) {
  const proxy = await freezingProxy(redisUrl);
  const direct = new Redis(redisUrl);

  describe('with a Redis that stops answering after it answered', () => {
    const service = useTestService({
      env: { REDIS_URL: proxy.url, RATE_LIMIT_PER_MINUTE: '2' },
      instances: 2,
      tearDown: async () => {
        direct.disconnect();
        await proxy.close();
      },
    });
    const first = () => service().instance(0);
    const second = () => service().instance(1);
    const countInRedis = async (ip: string) =>
      Number((await direct.get(`${REQUEST_LIMIT_PREFIX}${ip}`)) ?? 0);

    /** Until a request to `app` is counted in Redis again (its connection made anew after the freeze). */
    async function sharedAgain(app: FastifyInstance) {
      await expect
        .poll(
          async () => {
            const probe = freshIp();
            await csrfToken(app, probe);
            return countInRedis(probe);
          },
          { timeout: 10_000, interval: 100 },
        )
        .toBe(1);
    }

    it('answers once the command timeout has passed, counts in each instance, and shares again once back', async () => {
      const before = freshIp();
      expect((await csrfToken(first(), before)).statusCode).toBe(200);
      expect(await countInRedis(before)).toBe(1);
      proxy.freeze();
      const during = freshIp();
      expect((await csrfToken(first(), during)).statusCode).toBe(200);
      expect((await csrfToken(first(), during)).statusCode).toBe(200);
      expect((await csrfToken(first(), during)).statusCode).toBe(429);
      // The other instance keeps its own count meanwhile.
      expect((await csrfToken(second(), during)).statusCode).toBe(200);
      proxy.thaw();
      await sharedAgain(first());
      await sharedAgain(second());
      // Each of the 4 requests meanwhile reached Redis at most once: a command sent before the
      // freeze runs when Redis wakes, but none that timed out is sent again on the new connection.
      expect(await countInRedis(during)).toBeLessThanOrEqual(4);
      // Back: one count for both instances again.
      const after = freshIp();
      expect((await csrfToken(first(), after)).statusCode).toBe(200);
      expect((await csrfToken(second(), after)).statusCode).toBe(200);
      expect((await csrfToken(first(), after)).statusCode).toBe(429);
    });
  });
}
