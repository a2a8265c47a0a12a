import type { Redis } from 'ioredis';
import type { SharedCounters } from '../store/redis.ts';

/**
 * Short-lived rate-limit counters of the recovery flows (DESIGN §2: mail per address and per IP,
 * wrong-code guessing per IP). In this process by default; with REDIS_URL in Redis, so several
 * instances share one count (DESIGN §5), and in this process again while Redis fails.
 */

const MINUTE = 60_000;

/** Counts events per key in fixed windows that start with a key's first event. */
export interface WindowCounter {
  readonly limit: number;
  readonly windowMs: number;
  /** Counts one event; false when the key had already used up its window. */
  take(key: string): Promise<boolean>;
  /** Counts one event without asking. */
  add(key: string): Promise<void>;
  /** True once the key has used up its window. */
  exhausted(key: string): Promise<boolean>;
}

/** The in-process counter; `now` is injectable so tests need not wait. */
export class MemoryWindowCounter implements WindowCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private current(key: string): { start: number; count: number } {
    const at = this.now();
    const window = this.windows.get(key);
    if (window && at - window.start < this.windowMs) return window;
    this.prune(at);
    const fresh = { start: at, count: 0 };
    this.windows.set(key, fresh);
    return fresh;
  }

  /** Forgets finished windows once the map grows, so an address spray cannot exhaust memory. */
  private prune(at: number): void {
    if (this.windows.size < 10_000) return;
    for (const [key, window] of this.windows) {
      if (at - window.start >= this.windowMs) this.windows.delete(key);
    }
  }

  async take(key: string): Promise<boolean> {
    const window = this.current(key);
    if (window.count >= this.limit) return false;
    window.count += 1;
    return true;
  }

  async add(key: string): Promise<void> {
    this.current(key).count += 1;
  }

  async exhausted(key: string): Promise<boolean> {
    return this.current(key).count >= this.limit;
  }
}

/**
 * The same counter in Redis: INCR on `<prefix><key>`, the window's expiry set by the first event of
 * a window only (PEXPIRE … NX), so every instance counts against one window. A count past the limit
 * is kept, which changes nothing: the key is refused until its window ends either way.
 */
export class RedisWindowCounter implements WindowCounter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  private async increment(key: string): Promise<number> {
    const name = `${this.prefix}${key}`;
    const results = await this.redis.multi().incr(name).pexpire(name, this.windowMs, 'NX').exec();
    const [incremented] = results ?? [];
    if (!incremented || incremented[0]) throw incremented?.[0] ?? new Error('redis: no answer to INCR');
    return Number(incremented[1]);
  }

  async take(key: string): Promise<boolean> {
    return (await this.increment(key)) <= this.limit;
  }

  async add(key: string): Promise<void> {
    await this.increment(key);
  }

  async exhausted(key: string): Promise<boolean> {
    return Number((await this.redis.get(`${this.prefix}${key}`)) ?? 0) >= this.limit;
  }
}

/**
 * Redis's count, or this process's while Redis fails a command (refused, or no answer within its
 * timeout, store/redis.ts): a recovery call neither fails nor waits on Redis, and keeps its limits,
 * counted per instance until Redis is back. A count made here is not carried over to Redis.
 */
export class FallbackWindowCounter implements WindowCounter {
  constructor(
    private readonly shared: WindowCounter,
    private readonly local: WindowCounter,
    private readonly health: Pick<SharedCounters, 'failed' | 'answered'>,
  ) {}

  get limit(): number {
    return this.shared.limit;
  }

  get windowMs(): number {
    return this.shared.windowMs;
  }

  private async counted<T>(count: (counter: WindowCounter) => Promise<T>): Promise<T> {
    let answer: T;
    try {
      answer = await count(this.shared);
    } catch (error) {
      this.health.failed(error);
      return count(this.local);
    }
    this.health.answered();
    return answer;
  }

  take(key: string): Promise<boolean> {
    return this.counted((counter) => counter.take(key));
  }

  add(key: string): Promise<void> {
    return this.counted((counter) => counter.add(key));
  }

  exhausted(key: string): Promise<boolean> {
    return this.counted((counter) => counter.exhausted(key));
  }
}

export interface RecoveryLimits {
  /** Forgot-password requests per normalised address. */
  readonly forgotPerAddress: WindowCounter;
  /** Forgot-password requests per client IP. */
  readonly forgotPerIp: WindowCounter;
  /** Unknown, spent or expired codes presented per client IP, on every call that takes a code. */
  readonly wrongCodesPerIp: WindowCounter;
}

/** Forgot-password limits (FORGOT_PASSWORD_PER_ADDRESS, _PER_IP, _WINDOW_MINUTES in config.ts). */
export interface ForgotPasswordLimits {
  readonly perAddress: number;
  readonly perIp: number;
  readonly windowMs: number;
}

/**
 * Limits per counter: enough for a person retrying, far too few to mail-bomb or guess a 256-bit code.
 * The forgot-password ones are configurable, with these as their defaults.
 */
const DEFAULT_FORGOT_PASSWORD_LIMITS: ForgotPasswordLimits = {
  perAddress: 3,
  perIp: 20,
  windowMs: 15 * MINUTE,
};
const WRONG_CODES_PER_IP = { limit: 20, windowMs: 15 * MINUTE } as const;

/** Redis key prefix of the recovery counters. */
export const RECOVERY_LIMIT_PREFIX = 'keycard:limit:';

export interface RecoveryLimitOptions {
  /** Counts in Redis (REDIS_URL) instead of this process. */
  readonly shared?: SharedCounters;
  /** Clock of the in-process counters (tests). */
  readonly now?: () => number;
  /** Configured forgot-password limits; the defaults above otherwise. */
  readonly forgotPassword?: ForgotPasswordLimits;
}

export function createRecoveryLimits(options: RecoveryLimitOptions = {}): RecoveryLimits {
  const { shared, now = Date.now, forgotPassword = DEFAULT_FORGOT_PASSWORD_LIMITS } = options;
  const limits = {
    forgotPerAddress: { limit: forgotPassword.perAddress, windowMs: forgotPassword.windowMs },
    forgotPerIp: { limit: forgotPassword.perIp, windowMs: forgotPassword.windowMs },
    wrongCodesPerIp: WRONG_CODES_PER_IP,
  };
  const counter = (name: keyof typeof limits): WindowCounter => {
    const { limit, windowMs } = limits[name];
    const local = new MemoryWindowCounter(limit, windowMs, now);
    if (!shared) return local;
    const inRedis = new RedisWindowCounter(shared.redis, `${RECOVERY_LIMIT_PREFIX}${name}:`, limit, windowMs);
    return new FallbackWindowCounter(inRedis, local, shared);
  };
  return {
    forgotPerAddress: counter('forgotPerAddress'),
    forgotPerIp: counter('forgotPerIp'),
    wrongCodesPerIp: counter('wrongCodesPerIp'),
  };
}
