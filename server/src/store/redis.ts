import { Redis } from 'ioredis';

/**
 * The Redis connection of REDIS_URL (DESIGN §5): shared rate-limit counters when several instances
 * run. A command fails after one retry instead of queueing while Redis is away, so a request waits
 * at most about the connect timeout rather than hanging.
 */
export function openRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000, lazyConnect: false });
}
