import { Redis } from 'ioredis';

/**
 * How long a Redis command may take before the caller counts without it. Redis answers a counter's
 * INCR in well under a millisecond; one that has not answered in half a second is away (a paused
 * host, a dropped network path), and a request waiting on it would otherwise wait until the
 * connection's keep-alive gives up, minutes later.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/** How often a lasting Redis failure is logged again. */
const REPEAT_WARNING_MS = 60_000;

/** Where the connection's failures and its return are logged (Fastify's `app.log`). */
export interface RedisLog {
  warn(fields: object, message: string): void;
  info(message: string): void;
}

/** REDIS_URL's connection (DESIGN §5), where every instance keeps its short-lived counters. */
export interface SharedCounters {
  readonly redis: Redis;
  /** A counter's command failed and the count went to this process: logged once a minute while it lasts. */
  failed(error: unknown): void;
  /** A counter's command was answered: after failures, logged once as Redis's return. */
  answered(): void;
  /** Ends the connection: a polite QUIT, or at once when Redis does not answer it. */
  close(): Promise<void>;
}

/**
 * Opens REDIS_URL's connection. A command fails at once while Redis is not connected, and after
 * REDIS_COMMAND_TIMEOUT_MS when Redis takes it and does not answer; a connection that has answered
 * nothing for twice that is dropped and made again, so a paused Redis, whose host still keeps the
 * connection alive, costs each request the wait once rather than for as long as it lasts. The
 * counters then count in this process until Redis is back (rate-limit.ts, recovery-limits.ts), so a
 * sign-in neither waits on Redis nor loses its limits.
 */
export function openSharedCounters(url: string, log: RedisLog, now: () => number = Date.now): SharedCounters {
  const redis = new Redis(url, {
    // While not connected (refused, reconnecting, its handshake unanswered) a command fails at once
    // rather than waiting in a queue for the next attempt, up to seconds apart.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A command that timed out was counted in this process: sent again on a new connection, it
    // would be counted twice.
    autoResendUnfulfilledCommands: false,
    connectTimeout: 2_000,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    socketTimeout: 2 * REDIS_COMMAND_TIMEOUT_MS,
    lazyConnect: false,
  });
  // Logged: the failure once a minute while failures go on, and Redis's return once after a failure
  // was logged, however often it answers and fails in turn.
  let warnedAt: number | undefined;
  let returnUntold = false;
  const failed = (error: unknown) => {
    const at = now();
    if (warnedAt !== undefined && at - warnedAt < REPEAT_WARNING_MS) return;
    warnedAt = at;
    returnUntold = true;
    log.warn(
      { reason: error instanceof Error ? error.message : String(error) },
      'Redis is unavailable: rate-limit counters are kept in this process until it is back',
    );
  };
  // The connection's own failures (refused, reset, timed out); a command that times out only rejects.
  redis.on('error', failed);
  return {
    redis,
    failed,
    answered() {
      if (!returnUntold) return;
      returnUntold = false;
      log.info('Redis is available again: rate-limit counters are shared again');
    },
    async close() {
      try {
        await redis.quit();
      } catch {
        redis.disconnect();
      }
    },
  };
}
