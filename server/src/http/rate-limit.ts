import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { ServiceError } from '../errors/service-error.ts';
import { clientNetwork } from '../recovery/client-network.ts';

export interface RateLimitOptions {
  /** Requests per minute and client IP (RATE_LIMIT_PER_MINUTE). */
  readonly perMinute: number;
  /** Shared counters (REDIS_URL); without it each instance counts for itself. */
  readonly redis?: Redis;
}

/** Redis key prefix of the per-IP request counters. */
export const REQUEST_LIMIT_PREFIX = 'keycard:requests:';

/**
 * Per-IP request limit for every route registered after this call: the API, the provider's protocol
 * endpoints and the admin API. The SPA's files, registered before, are not counted: one page load
 * fetches several of them. Over the limit: 429 `rate_limited` with Retry-After, from the one error
 * handler. Identifier lockout (DESIGN §2 Login) stays the guard of a single account; this one limits
 * a client spraying many.
 */
export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: options.perMinute,
    timeWindow: 60_000,
    // An IPv6 client by its /64, which it may send from any address of (recovery/client-network.ts).
    keyGenerator: (request) => clientNetwork(request.ip),
    ...(options.redis ? { redis: options.redis, nameSpace: REQUEST_LIMIT_PREFIX } : {}),
    // Redis away: answer rather than fail every request; the identifier lockout still holds.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new ServiceError('rate_limited', `Too many requests; try again in ${context.after}.`),
  });
}
