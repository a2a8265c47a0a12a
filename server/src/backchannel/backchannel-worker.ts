import type Provider from 'oidc-provider';
import type { ReachableNetworks } from '../config-fields.ts';
import { loggableMessage } from '../errors/loggable-error.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { errorsWithin } from '../store/sql-state.ts';
import { detachedFromRequest } from '../tracing/spans.ts';
import { createLogoutSender, NoLogoutListener } from './backchannel-delivery.ts';
import {
  type ClaimedLogout,
  claimNextDueLogout,
  markLogoutDelivered,
  recordLogoutFailure,
  releaseLogoutClaim,
} from './backchannel-repository.ts';
import { LOGOUT_MAX_ATTEMPTS, logoutRetryDelayMs } from './backchannel-retry.ts';
import { UnreachableAddress } from './reachable-networks.ts';

/** How often the worker looks on its own, and how long a claim holds (longer than any one post). */
export const LOGOUT_WORKER_TIMING = { pollMs: 5_000, leaseMs: 60_000 } as const;

/** Where the worker reports; pino's logger fits. */
export interface LogoutLog {
  info(message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface LogoutWorkerOptions {
  readonly db: Db;
  /** The provider whose keys sign now (keys rotate: see provider-source.ts). */
  readonly provider: () => Promise<Provider>;
  readonly clock: Clock;
  readonly log: LogoutLog;
  /** Networks beyond the public internet that relying parties listen in (BACKCHANNEL_PRIVATE_NETWORKS). */
  readonly networks: ReachableNetworks;
  /** Jitter source of the back-off, in [0, 1). */
  readonly random?: () => number;
  readonly pollMs?: number;
}

export interface LogoutWorker {
  /** Posts what is due now, then polls. */
  start(): void;
  /** Look at the queue now instead of at the next poll; a no-op until started; never throws. */
  nudge(): void;
  /** One pass over everything due, started or not; resolves with how many tokens were tried. */
  runOnce(): Promise<number>;
  /** Takes no further token and cancels a post in flight (it is due again at once, uncounted). */
  stop(): Promise<void>;
}

function describe(error: unknown): string {
  return loggableMessage(error)
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .slice(0, 500);
}

/**
 * No later attempt can succeed: the client no longer listens, or its URI leads to an address the
 * configuration does not let the service reach (until an operator changes one or the other and
 * retries it with `backchannel:failed --retry`).
 */
function isForGood(error: unknown): boolean {
  for (const within of errorsWithin(error)) {
    if (within instanceof NoLogoutListener || within instanceof UnreachableAddress) return true;
  }
  return false;
}

/**
 * Delivers queued logout tokens (Back-Channel Logout §2.5) outside any request: claims one due token at
 * a time with a lease, posts it, then marks it delivered or schedules the next attempt. Several
 * instances share one queue; rows persist, so a restart loses nothing.
 */
export function createLogoutWorker(options: LogoutWorkerOptions): LogoutWorker {
  const { db, provider, clock, log } = options;
  const pollMs = options.pollMs ?? LOGOUT_WORKER_TIMING.pollMs;
  const cancel = new AbortController();
  const sender = createLogoutSender(options.networks);
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<number> | undefined;
  let again = false;
  let queueReachable = true;

  async function recordFailure(token: ClaimedLogout, error: unknown): Promise<void> {
    const attempts = token.attempts + 1;
    const now = await clock.now();
    const details = { logoutId: token.id, clientId: token.clientId, attempts, error: describe(error) };
    if (attempts >= LOGOUT_MAX_ATTEMPTS || isForGood(error)) {
      await recordLogoutFailure(db, token.id, attempts, { failedAt: now, error: details.error });
      log.error(details, 'Back-channel logout failed for good');
      return;
    }
    const retryAt = new Date(now.getTime() + logoutRetryDelayMs(attempts, options.random));
    await recordLogoutFailure(db, token.id, attempts, { retryAt, error: details.error });
    log.warn({ ...details, retryAt: retryAt.toISOString() }, 'Back-channel logout failed; will retry');
  }

  async function deliver(token: ClaimedLogout): Promise<void> {
    try {
      await sender.post(await provider(), token, cancel.signal);
    } catch (error) {
      if (cancel.signal.aborted) await releaseLogoutClaim(db, token.id);
      else await recordFailure(token, error);
      return;
    }
    await markLogoutDelivered(db, token.id, await clock.now());
  }

  async function drain(): Promise<number> {
    let tried = 0;
    try {
      while (!stopped) {
        const now = await clock.now();
        const token = await claimNextDueLogout(
          db,
          now,
          new Date(now.getTime() + LOGOUT_WORKER_TIMING.leaseMs),
        );
        if (!token) break;
        await deliver(token);
        tried += 1;
      }
      if (!queueReachable) log.info('Back-channel logout worker reaches its queue again');
      queueReachable = true;
    } catch (error) {
      // Once per outage, not once per poll.
      if (queueReachable)
        log.warn({ error: describe(error) }, 'Back-channel logout worker cannot use its queue');
      queueReachable = false;
    }
    return tried;
  }

  function afterPass(): void {
    pass = undefined;
    if (!started || stopped) return;
    if (again) {
      again = false;
      kick();
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(kick, pollMs);
    // The HTTP server keeps the service alive; the worker alone must not keep a process running.
    timer.unref();
  }

  function kick(): void {
    if (!started || stopped) return;
    if (pass) {
      again = true;
      return;
    }
    clearTimeout(timer);
    // A nudge comes from a request (a sign-out); the pass it starts is not part of that request's trace.
    pass = detachedFromRequest(drain).finally(afterPass);
  }

  return {
    start() {
      started = true;
      kick();
    },
    nudge: kick,
    async runOnce() {
      while (pass) await pass;
      const current = drain().finally(afterPass);
      pass = current;
      return current;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      cancel.abort();
      while (pass) await pass;
      await sender.close();
    },
  };
}
