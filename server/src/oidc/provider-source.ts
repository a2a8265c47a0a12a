import type Provider from 'oidc-provider';
import type { Clock } from '../store/clock.ts';
import { generationsOf, type KeySchedule, keyScheduleAt } from './key-schedule.ts';
import type { SigningJwk } from './keys.ts';
import { listSigningKeys } from './oidc-repository.ts';
import { createProvider, type ProviderDeps } from './provider.ts';

/**
 * How long an instance goes without reading the stored keys: another instance's rotation is
 * published here within this time, far inside any grace period. Starts and ends of signing are
 * scheduled, so they take effect at their time without waiting for this.
 */
export const KEY_RELOAD_MS = 30_000;

export interface ProviderSource {
  /**
   * Built at start from the base keys; answers what needs no signing key (interactions, grants,
   * stored tokens) for the API's routes and the admin API.
   */
  readonly initial: Provider;
  /** The provider for a protocol request: rebuilt when the published or signing keys changed. */
  current(): Promise<Provider>;
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
export function createProviderSource(deps: ProviderSourceDeps): ProviderSource {
  const { baseKeys, cookieKeys, retainMs, ...providerDeps } = deps;
  const build = (schedule: KeySchedule) =>
    createProvider({ ...providerDeps, keys: { schedule, cookieKeys } });
  let schedule = keyScheduleAt(baseKeys, [], new Date(0), retainMs);
  let provider = build(schedule);
  let readAt: number | undefined;
  let reading: Promise<Provider> | undefined;

  async function reload(now: Date): Promise<Provider> {
    const next = keyScheduleAt(baseKeys, generationsOf(await listSigningKeys(deps.db)), now, retainMs);
    readAt = now.getTime();
    if (fingerprintOf(next) !== fingerprintOf(schedule)) provider = build(next);
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
      reading ??= deps.clock
        .now()
        .then(reload)
        .finally(() => {
          reading = undefined;
        });
      return reading;
    },
  };
}
