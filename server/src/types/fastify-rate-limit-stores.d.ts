// The stores @fastify/rate-limit ships (its store/ folder), which http/rate-limit.ts composes; the
// package declares only its plugin and a store's `incr` and `child`, not the `read` both have.
declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  import type { Redis } from 'ioredis';

  interface Store extends FastifyRateLimitStore {
    read: FastifyRateLimitStore['incr'];
  }
  const RedisStore: new (
    continueExceeding: boolean,
    exponentialBackoff: boolean,
    redis: Redis,
    key?: string,
  ) => Store;
  export default RedisStore;
}

declare module '@fastify/rate-limit/store/LocalStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';

  interface Store extends FastifyRateLimitStore {
    read: FastifyRateLimitStore['incr'];
  }
  const LocalStore: new (continueExceeding: boolean, exponentialBackoff: boolean, cache?: number) => Store;
  export default LocalStore;
}
