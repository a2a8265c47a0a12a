import { Redis } from 'ioredis';

/**
 * Every request of the journeys (browser, admin CLI, fetches) comes from this machine and reaches the
 * service on 127.0.0.1, so the service counts them all against this one client address.
 */
const LOOPBACK_CLIENT = '127.0.0.1';

/**
 * The per-IP recovery counters of server/src/recovery/recovery-limits.ts (prefix `keycard:limit:`).
 * With REDIS_URL they outlive the service in 15-minute windows: an earlier run's forgot-password
 * requests and wrong codes (the route journeys open made-up codes on purpose) would count against
 * this run and, past the limit, make every code look invalid to it.
 */
const PER_IP_COUNTERS = ['forgotPerIp', 'wrongCodesPerIp'].map(
  (name) => `keycard:limit:${name}:${LOOPBACK_CLIENT}`,
);

/**
 * Starts the run with fresh per-IP recovery counters in the Redis of `redisUrl`, as it starts with a
 * fresh database. Only the loopback client's counters go; the service itself is not started yet.
 */
export async function clearLoopbackCounters(redisUrl: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
  try {
    await redis.connect();
    await redis.del(...PER_IP_COUNTERS);
  } finally {
    redis.disconnect();
  }
}
