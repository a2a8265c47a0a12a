import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MemoryWindowCounter, RedisWindowCounter, type WindowCounter } from './recovery-limits.ts';

async function takeAll(counter: WindowCounter, key: string, times: number): Promise<boolean[]> {
  const answers: boolean[] = [];
  for (let n = 0; n < times; n++) answers.push(await counter.take(key));
  return answers;
}

describe('in-process window counter', () => {
  it('lets `limit` events through per window and starts afresh after it', async () => {
    let now = 0;
    const counter = new MemoryWindowCounter(2, 1_000, () => now);
    expect(await takeAll(counter, 'a', 3)).toEqual([true, true, false]);
    expect(await counter.exhausted('a')).toBe(true);
    expect(await counter.take('b')).toBe(true);
    now = 1_000;
    expect(await counter.exhausted('a')).toBe(false);
    expect(await counter.take('a')).toBe(true);
  });

  it('counts add() like take() without asking', async () => {
    const counter = new MemoryWindowCounter(2, 1_000, () => 0);
    await counter.add('x');
    await counter.add('x');
    expect(await counter.exhausted('x')).toBe(true);
    expect(await counter.take('x')).toBe(false);
  });
});

// Runs on the CI's production-path pass, which sets REDIS_URL.
if (process.env.REDIS_URL) {
  describe('Redis window counter (REDIS_URL)', () => {
    const redis = new Redis(process.env.REDIS_URL ?? '');
    afterAll(() => redis.quit());
    const prefix = () => `keycard:test:${randomBytes(6).toString('hex')}:`;

    it('shares one count between instances and sets the window on the first event', async () => {
      const shared = prefix();
      const one = new RedisWindowCounter(redis, shared, 3, 60_000);
      const other = new RedisWindowCounter(redis, shared, 3, 60_000);
      expect(await one.take('ip')).toBe(true);
      expect(await other.take('ip')).toBe(true);
      const ttl = await redis.pttl(`${shared}ip`);
      expect(ttl).toBeGreaterThan(55_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
      await other.add('ip');
      expect(await one.exhausted('ip')).toBe(true);
      expect(await one.take('ip')).toBe(false);
      expect(await one.exhausted('elsewhere')).toBe(false);
    });

    it('forgets a key once its window is over', async () => {
      const own = prefix();
      const counter = new RedisWindowCounter(redis, own, 1, 50);
      expect(await counter.take('k')).toBe(true);
      expect(await counter.take('k')).toBe(false);
      // The window ends when Redis expires the key, by Redis's clock: wait for that, not a guess.
      await vi.waitFor(async () => expect(await redis.exists(`${own}k`)).toBe(0), {
        timeout: 5_000,
        interval: 10,
      });
      expect(await counter.take('k')).toBe(true);
    });
  });
}
