import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors/service-error.ts';
import { protocolMethods } from '../oidc/protocol-routes.ts';
import { OIDC_MOUNT } from '../oidc/provider.ts';
import { clientNetwork } from '../recovery/client-network.ts';
import type { SharedCounters } from '../store/redis.ts';
import { isOidcPath, pathOf } from './paths.ts';

type Counted = Parameters<FastifyRateLimitStore['incr']>[1];

export interface RateLimitOptions {
  /** Requests per minute and client IP (RATE_LIMIT_PER_MINUTE). */
  readonly perMinute: number;
  /** Shared counters (REDIS_URL); without it each instance counts for itself. */
  readonly shared?: SharedCounters;
}

/** The per-IP limit's refusal, with the seconds until its window lets the client in again. */
export class RequestLimitError extends ServiceError {
  constructor(
    readonly waitSeconds: number,
    after: string,
  ) {
    super('rate_limited', `Too many requests; try again in ${after}.`);
  }
}

/**
 * A browser's CORS preflight of a provider endpoint that answers across origins is not counted:
 * refused, it would hide the refusal of the call it precedes (status, Retry-After) from the relying
 * party's script (protocol-limit.ts). The provider answers it without reading anything.
 */
export function isProtocolPreflight(request: FastifyRequest): boolean {
  if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined)
    return false;
  const path = pathOf(request.url);
  return isOidcPath(path) && (protocolMethods(path.slice(OIDC_MOUNT.length))?.includes('OPTIONS') ?? false);
}

/** Redis key prefix of the per-IP request counters. */
export const REQUEST_LIMIT_PREFIX = 'keycard:requests:';

/** A store's `incr` or `read`: the same arguments, the count and window it answers. */
type StoreCall = (store: CountingStore, counted: Counted) => void;

/** What the library's stores do (its index.js calls `read` for a check that does not count). */
interface CountingStore extends FastifyRateLimitStore {
  read(key: string, counted: Counted, timeWindow: number, max: number): void;
}

/** The plugin's options a store is built with. */
interface StoreOptions {
  readonly continueExceeding?: boolean;
  readonly exponentialBackoff?: boolean;
}

/**
 * The library's Redis store, which counts in the library's in-process store whenever Redis fails a
 * command (refused, or no answer within its timeout, store/redis.ts): while Redis is away each
 * instance keeps the limit for itself, rather than every request failing, waiting or going uncounted.
 */
function storeFallingBackFrom(shared: SharedCounters): FastifyRateLimitStoreCtor {
  interface Stores {
    readonly primary: CountingStore;
    readonly local: CountingStore;
  }
  return class FallbackStore implements CountingStore {
    readonly #stores: Stores;

    // The plugin builds it with its options; a child is built with its parent's stores' children.
    constructor(options?: StoreOptions, stores?: Stores) {
      const { continueExceeding = false, exponentialBackoff = false } = options ?? {};
      this.#stores = stores ?? {
        primary: new RedisStore(continueExceeding, exponentialBackoff, shared.redis, REQUEST_LIMIT_PREFIX),
        local: new LocalStore(continueExceeding, exponentialBackoff),
      };
    }

    #either(call: StoreCall, counted: Counted): void {
      const { primary, local } = this.#stores;
      call(primary, (error, result) => {
        if (!error) {
          shared.answered();
          return counted(null, result);
        }
        shared.failed(error);
        call(local, counted);
      });
    }

    incr(key: string, counted: Counted, timeWindow: number, max: number): void {
      this.#either((store, answer) => store.incr(key, answer, timeWindow, max), counted);
    }

    read(key: string, counted: Counted, timeWindow: number, max: number): void {
      this.#either((store, answer) => store.read(key, answer, timeWindow, max), counted);
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): CountingStore {
      const { primary, local } = this.#stores;
      return new FallbackStore(undefined, {
        primary: primary.child(routeOptions) as CountingStore,
        local: local.child(routeOptions) as CountingStore,
      });
    }
  } as FastifyRateLimitStoreCtor;
}

/**
 * Per-IP request limit for every route registered after this call: the API, the provider's protocol
 * endpoints and the admin API. The SPA's files, registered before, are not counted: one page load
 * fetches several of them. Over the limit: 429 `rate_limited` with Retry-After, from the one error
 * handler, in the protocol's terms on the provider's endpoints (protocol-limit.ts). Identifier
 * lockout (DESIGN §2 Login) stays the guard of a single account; this one limits a client spraying
 * many.
 */
export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: options.perMinute,
    timeWindow: 60_000,
    // An IPv6 client by its /64, which it may send from any address of (recovery/client-network.ts).
    keyGenerator: (request) => clientNetwork(request.ip),
    ...(options.shared ? { store: storeFallingBackFrom(options.shared) } : {}),
    allowList: isProtocolPreflight,
    errorResponseBuilder: (_request, context) =>
      new RequestLimitError(Math.max(1, Math.ceil(context.ttl / 1000)), context.after),
  });
}
