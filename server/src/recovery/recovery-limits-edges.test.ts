import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import {
  createRecoveryLimits,
  FallbackWindowCounter,
  MemoryWindowCounter,
  RECOVERY_LIMIT_PREFIX,
  RedisWindowCounter,
} from './recovery-limits.ts';

/**
 * The few Redis commands the counter uses, kept in memory with their expiries, so the counter's
 * own rules (one window per key, started by its first event) are tested where no Redis server runs;
 * recovery-limits.test.ts runs the same counter against a real one when REDIS_URL is set.
 */
class FakeRedis {
  readonly values = new Map<string, number>();
  readonly expiries = new Map<string, number>();
  readonly commands: string[][] = [];
  failNextExec: Error | 'no-answer' | undefined;
  /** Every command fails with this until cleared, as while Redis is away. */
  away: Error | undefined;

  multi() {
    const queued: (() => [Error | null, unknown])[] = [];
    const chain = {
      incr: (name: string) => {
        this.commands.push(['incr', name]);
        queued.push(() => {
          const value = (this.values.get(name) ?? 0) + 1;
          this.values.set(name, value);
          return [null, value];
        });
        return chain;
      },
      pexpire: (name: string, ms: number, mode: string) => {
        this.commands.push(['pexpire', name, String(ms), mode]);
        queued.push(() => {
          if (mode === 'NX' && this.expiries.has(name)) return [null, 0];
          this.expiries.set(name, ms);
          return [null, 1];
        });
        return chain;
      },
      exec: async () => {
        if (this.away) throw this.away;
        const failure = this.failNextExec;
        this.failNextExec = undefined;
        if (failure === 'no-answer') return null;
        if (failure) return [[failure, null]];
        return queued.map((command) => command());
      },
    };
    return chain;
  }

  async get(name: string): Promise<string | null> {
    if (this.away) throw this.away;
    const value = this.values.get(name);
    return value === undefined ? null : String(value);
  }

  /** The end of a window: Redis drops the key when its expiry passes. */
  expire(name: string): void {
    this.values.delete(name);
    this.expiries.delete(name);
  }

  asRedis(): Redis {
    return this as unknown as Redis;
  }
}

describe('Redis window counter, its rules', () => {
  it('lets `limit` events through, then refuses until the window ends', async () => {
    const redis = new FakeRedis();
    const counter = new RedisWindowCounter(redis.asRedis(), 'p:', 2, 60_000);
    expect(await counter.exhausted('ip')).toBe(false);
    expect(await counter.take('ip')).toBe(true);
    expect(await counter.exhausted('ip')).toBe(false);
    expect(await counter.take('ip')).toBe(true);
    expect(await counter.exhausted('ip')).toBe(true);
    expect(await counter.take('ip')).toBe(false);
    expect(await counter.take('other')).toBe(true);
    redis.expire('p:ip');
    expect(await counter.take('ip')).toBe(true);
  });

  it('counts under the prefixed key and sets the expiry of the first event only (NX)', async () => {
    const redis = new FakeRedis();
    const counter = new RedisWindowCounter(redis.asRedis(), 'p:', 3, 60_000);
    await counter.add('ip');
    await counter.add('ip');
    expect(redis.commands).toEqual([
      ['incr', 'p:ip'],
      ['pexpire', 'p:ip', '60000', 'NX'],
      ['incr', 'p:ip'],
      ['pexpire', 'p:ip', '60000', 'NX'],
    ]);
    expect(redis.values.get('p:ip')).toBe(2);
    expect(await counter.take('ip')).toBe(true);
    expect(await counter.take('ip')).toBe(false);
  });

  it('fails the call when Redis answers INCR with an error or not at all', async () => {
    const redis = new FakeRedis();
    const counter = new RedisWindowCounter(redis.asRedis(), 'p:', 3, 60_000);
    const refused = new Error('READONLY');
    redis.failNextExec = refused;
    await expect(counter.take('ip')).rejects.toBe(refused);
    redis.failNextExec = 'no-answer';
    await expect(counter.add('ip')).rejects.toThrow('redis: no answer to INCR');
  });
});

/** What the counters report to the connection (store/redis.ts), recorded. */
function recordedHealth() {
  const reports: string[] = [];
  return {
    reports,
    failed: (error: unknown) => void reports.push(`failed: ${(error as Error).message}`),
    answered: () => void reports.push('answered'),
  };
}

/** A limit of 2 a minute in `redis`, counted in this process while it fails. */
function fallingBack(redis: FakeRedis, health: ReturnType<typeof recordedHealth>) {
  return new FallbackWindowCounter(
    new RedisWindowCounter(redis.asRedis(), 'p:', 2, 60_000),
    new MemoryWindowCounter(2, 60_000, () => 0),
    health,
  );
}

describe('Redis window counter falling back to this process', () => {
  it('counts in Redis while it answers, and says so', async () => {
    const redis = new FakeRedis();
    const health = recordedHealth();
    const counter = fallingBack(redis, health);
    expect(await counter.take('ip')).toBe(true);
    await counter.add('ip');
    expect(await counter.exhausted('ip')).toBe(true);
    expect(redis.values.get('p:ip')).toBe(2);
    expect(health.reports).toEqual(['answered', 'answered', 'answered']);
    expect([counter.limit, counter.windowMs]).toEqual([2, 60_000]);
  });

  it('keeps the limit of 2 in this process while Redis fails, and reports each failure', async () => {
    const redis = new FakeRedis();
    const health = recordedHealth();
    const counter = fallingBack(redis, health);
    redis.away = new Error('Command timed out');
    expect(await counter.exhausted('ip')).toBe(false);
    expect(await counter.take('ip')).toBe(true);
    expect(await counter.take('ip')).toBe(true);
    expect(await counter.take('ip')).toBe(false);
    expect(await counter.exhausted('ip')).toBe(true);
    expect(health.reports).toEqual(Array(5).fill('failed: Command timed out'));
    // Back: Redis's own count again, which the events while it was away did not reach.
    redis.away = undefined;
    expect(await counter.take('ip')).toBe(true);
    expect(health.reports.at(-1)).toBe('answered');
  });
});

describe('in-process window counter, its memory', () => {
  const windowsOf = (counter: MemoryWindowCounter) => Reflect.get(counter, 'windows') as Map<string, unknown>;

  it('forgets finished windows once 10 000 keys are held, and only finished ones', async () => {
    let now = 0;
    const counter = new MemoryWindowCounter(1, 1_000, () => now);
    for (let n = 0; n < 9_999; n++) await counter.add(`old-${n}`);
    now = 999;
    await counter.add('recent');
    expect(windowsOf(counter).size).toBe(10_000);
    now = 1_000;
    // A new key with 10 000 held: the 9 999 windows that began at 0 are over, 'recent' is not.
    await counter.add('new');
    expect([...windowsOf(counter).keys()].sort()).toEqual(['new', 'recent']);
    expect(await counter.exhausted('recent')).toBe(true);
  });

  it('keeps every window below 10 000 keys, finished or not', async () => {
    let now = 0;
    const counter = new MemoryWindowCounter(1, 1_000, () => now);
    for (let n = 0; n < 9_998; n++) await counter.add(`old-${n}`);
    now = 5_000;
    await counter.add('new');
    expect(windowsOf(counter).size).toBe(9_999);
  });
});

describe('recovery limits (DESIGN §2)', () => {
  // Their numbers are pinned with the other security rules; here only how they are built.
  it('count in this process on the clock they are given', async () => {
    let now = 0;
    const limits = createRecoveryLimits({ now: () => now });
    const { limit, windowMs } = limits.forgotPerAddress;
    expect(limits.forgotPerAddress).toBeInstanceOf(MemoryWindowCounter);
    for (let n = 0; n < limit; n++) expect(await limits.forgotPerAddress.take('a@example.com')).toBe(true);
    expect(await limits.forgotPerAddress.take('a@example.com')).toBe(false);
    now = windowMs;
    expect(await limits.forgotPerAddress.take('a@example.com')).toBe(true);
  });

  it('count in Redis under one prefix per counter when Redis is configured', async () => {
    const redis = new FakeRedis();
    const shared = { redis: redis.asRedis(), ...recordedHealth(), close: async () => {} };
    const limits = createRecoveryLimits({ shared });
    expect(limits.forgotPerAddress).toBeInstanceOf(FallbackWindowCounter);
    await limits.forgotPerAddress.add('a@example.com');
    await limits.forgotPerIp.add('10.0.0.1');
    await limits.wrongCodesPerIp.add('10.0.0.1');
    expect([...redis.values.keys()]).toEqual([
      `${RECOVERY_LIMIT_PREFIX}forgotPerAddress:a@example.com`,
      `${RECOVERY_LIMIT_PREFIX}forgotPerIp:10.0.0.1`,
      `${RECOVERY_LIMIT_PREFIX}wrongCodesPerIp:10.0.0.1`,
    ]);
    expect(RECOVERY_LIMIT_PREFIX).toBe('keycard:limit:');
  });
});
