import type Provider from 'oidc-provider';
import type { Clock } from '../store/clock.ts';
import { generationsOf, type KeySchedule, keyScheduleAt, revocationsOf } from './key-schedule.ts';
import type { SigningJwk } from './keys.ts';
import { readSigningKeys } from './oidc-repository.ts';
import { createProvider, type ProviderDeps } from './provider.ts';

/**
 * How long an instance goes without reading the stored keys: another process's rotation or revocation
 * is published here within this time, far inside any grace period, even when its announcement is
 * missed (key-changes.ts: heard, it takes effect at the next request). Starts and ends of signing are
 * scheduled, so they take effect at their time without waiting for this.
 */
export const KEY_RELOAD_MS = 30_000;

/** Reads of the keys one reload makes at most while invalidations keep landing during them. */
const READS = 5;

export interface ProviderSource {
  /**
   * Built at start from the base keys, before any revocation is read; answers what needs no signing
   * key (interactions, grants, stored tokens, all looked up by id) for the API's routes and the admin
   * API, and never verifies a signature for them. Every protocol request, where a token or an
   * id_token_hint is signed or verified, goes to current().
   */
  readonly initial: Provider;
  /** The provider for a protocol request: rebuilt when the published or signing keys changed. */
  current(): Promise<Provider>;
}

/** What is told of a change of the stored keys (by the admin API, key-changes.ts). */
export interface KeyScheduleCache {
  /**
   * The stored keys changed (a rotation or revocation committed, here or announced by another
   * process): the next protocol request reads them again instead of waiting for KEY_RELOAD_MS.
   */
  invalidate(): void;
}

export interface ProviderSourceDeps extends Omit<ProviderDeps, 'keys'> {
  readonly clock: Clock;
  readonly baseKeys: readonly SigningJwk[];
  readonly cookieKeys: readonly string[];
  readonly retainMs: number;
}

/** Which keys sign and which are only published, in the order oidc-provider picks them. */
function fingerprintOf(schedule: KeySchedule): string {
  return schedule.keys
    .map((key) => `${key.jwk.kid}:${key.state === 'current' ? 'signs' : 'verifies'}`)
    .join();
}

/**
 * oidc-provider reads its key set once, when it is constructed, and its author's answer to key
 * rotation is a new instance (panva/node-oidc-provider#651). So the provider is built again whenever
 * the key schedule of the shared database and clock differs from the one it was built with; requests
 * in flight finish on the provider they started on. Building needs no database: the stored keys are
 * first read by the first protocol request.
 */
export function createProviderSource(deps: ProviderSourceDeps): ProviderSource & KeyScheduleCache {
  const { baseKeys, cookieKeys, retainMs, ...providerDeps } = deps;
  const build = (schedule: KeySchedule) =>
    createProvider({ ...providerDeps, keys: { schedule, cookieKeys } });
  // A revoked base key is left out from the first read on: the schedule then differs from this one,
  // so no protocol request is answered by the provider built here with it.
  let schedule = keyScheduleAt(baseKeys, [], new Date(0), retainMs);
  let provider = build(schedule);
  let readAt: number | undefined;
  let reading: Promise<Provider> | undefined;
  // Counts invalidations: a read begun before the last one may have missed the change it announced.
  let changes = 0;

  /**
   * Reads the stored keys and then the time, again while an invalidation lands during the read (at
   * most READS times): the provider answered is then built from a read begun after the change it
   * announced, never the one before, which may still hold a revoked key. The time is read after the
   * keys: a generation a revocation or `keys:rotate --now` made signs from a time read under the key
   * lock before it committed, so a read that sees it also finds it signing. (The time read first, a
   * revocation committed in between would leave the schedule without a signing key: the revoked key
   * out, its replacements not begun.) A build that fails leaves the last provider and its time of
   * reading, so the next request tries again.
   */
  async function reload(asOf: number): Promise<Provider> {
    let seen = asOf;
    let read = await readSigningKeys(deps.db);
    let now = await deps.clock.now();
    for (let reads = 1; seen !== changes && reads < READS; reads++) {
      seen = changes;
      read = await readSigningKeys(deps.db);
      now = await deps.clock.now();
    }
    const next = keyScheduleAt(
      baseKeys,
      generationsOf(read.rows),
      now,
      retainMs,
      revocationsOf(read.revoked),
    );
    if (fingerprintOf(next) !== fingerprintOf(schedule)) provider = build(next);
    // Announcements still landing after the last read: the next request reads again.
    readAt = seen === changes ? now.getTime() : undefined;
    schedule = next;
    return provider;
  }

  function due(now: number): boolean {
    if (readAt === undefined || now < readAt || now - readAt >= KEY_RELOAD_MS) return true;
    return schedule.nextChangeAt !== null && now >= schedule.nextChangeAt.getTime();
  }

  return {
    initial: provider,
    async current() {
      // Most requests find nothing due: they ask the local estimate, not the database. Once something
      // may be due, the stored keys are read at the database's own time.
      if (!due(deps.clock.estimate().getTime())) return provider;
      const asOf = changes;
      reading ??= reload(asOf).finally(() => {
        if (changes === asOf) reading = undefined;
      });
      return reading;
    },
    invalidate() {
      // Stryker disable next-line UpdateOperator: only whether the count moved is read
      changes++;
      readAt = undefined;
      reading = undefined;
    },
  };
}
