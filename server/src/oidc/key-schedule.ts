import type { SigningJwk } from './keys.ts';

/**
 * Which signing keys sign and which are only published, at a given time (DESIGN §1 signing keys).
 * Keys come in generations: the base set (OIDC_JWKS, or the generated development keys) signs from
 * the start; each keys:rotate adds a generation that signs from its `activatesAt`. A generation is
 * - next: published, not signing yet (until its activatesAt: the grace period, so relying parties'
 *   cached key sets know it before any token it signed arrives);
 * - current: signing (the latest generation whose activatesAt has come);
 * - retired: replaced, still published until every token it signed has expired (`retainMs` after
 *   the generation replacing it began to sign);
 * - removed: no longer published (left out here; rotation deletes its rows).
 * A revoked key (keys:revoke, a leaked one) is left out whatever its state: never published, never
 * signing. Its generation keeps its place in time if it began to sign before the revocation, so the
 * generation before it still retired then and does not come back; one revoked whole before its time
 * never signed and is left out, so it never begins to.
 * Every instance derives the same answer from the stored rows, the revocations and the shared clock.
 */

export type KeyState = 'next' | 'current' | 'retired';

export interface ScheduledKey {
  readonly jwk: SigningJwk;
  readonly state: KeyState;
  /** When it signs (next) or signed from (current, retired); null for the base set. */
  readonly activatesAt: Date | null;
  /** Retired keys: when they stopped signing, and until when they are published. */
  readonly retiredAt: Date | null;
  readonly publishedUntil: Date | null;
}

export interface KeySchedule {
  /** The published keys, the current generation first: oidc-provider signs with the first that fits. */
  readonly keys: readonly ScheduledKey[];
  /** The next time a key starts signing or leaves the set; null when nothing is scheduled. */
  readonly nextChangeAt: Date | null;
}

/** A rotation's keys, as stored. */
export interface KeyGeneration {
  readonly activatesAt: Date;
  readonly keys: readonly SigningJwk[];
}

/** The stored keys grouped by rotation (the keys of one share activatesAt), earliest first. */
export function generationsOf(rows: readonly { jwk: SigningJwk; activatesAt: Date }[]): KeyGeneration[] {
  const byTime = new Map<number, SigningJwk[]>();
  for (const row of rows) {
    const time = row.activatesAt.getTime();
    byTime.set(time, [...(byTime.get(time) ?? []), row.jwk]);
  }
  return [...byTime].sort(([a], [b]) => a - b).map(([time, keys]) => ({ activatesAt: new Date(time), keys }));
}

/** Revoked kids and when each was revoked (keys:revoke). */
export type RevokedKeys = ReadonlyMap<string, Date>;

/** The stored revocations by kid. */
export function revocationsOf(rows: readonly { kid: string; revokedAt: Date }[]): RevokedKeys {
  return new Map(rows.map((row) => [row.kid, row.revokedAt]));
}

const NONE_REVOKED: RevokedKeys = new Map();

/** Whether every key of a stored generation was revoked before it began to sign: it never signed. */
function neverSigned(
  generation: { activatesAt: Date | null; keys: readonly SigningJwk[] },
  revoked: RevokedKeys,
) {
  const { activatesAt } = generation;
  if (activatesAt === null) return false;
  return generation.keys.every((jwk) => {
    const revokedAt = revoked.get(jwk.kid);
    return revokedAt !== undefined && revokedAt.getTime() <= activatesAt.getTime();
  });
}

export function keyScheduleAt(
  base: readonly SigningJwk[],
  stored: readonly KeyGeneration[],
  now: Date,
  retainMs: number,
  revoked: RevokedKeys = NONE_REVOKED,
): KeySchedule {
  const started = (at: Date | null) => at === null || at.getTime() <= now.getTime();
  const live = (keys: readonly SigningJwk[]) => keys.filter((jwk) => !revoked.has(jwk.kid));
  const generations = [{ activatesAt: null as Date | null, keys: base }, ...stored].filter(
    (generation) => !neverSigned(generation, revoked),
  );
  const currentIndex = generations.findLastIndex((generation) => started(generation.activatesAt));
  const current: ScheduledKey[] = [];
  const others: ScheduledKey[] = [];
  const changes: number[] = [];
  generations.forEach((generation, index) => {
    const { activatesAt } = generation;
    const keys = live(generation.keys);
    let entry: Omit<ScheduledKey, 'jwk'>;
    if (index === currentIndex) {
      entry = { state: 'current', activatesAt, retiredAt: null, publishedUntil: null };
    } else if (index > currentIndex) {
      // Stryker disable next-line ConditionalExpression: only the base set has no time, and it is never after the current one
      if (activatesAt !== null) changes.push(activatesAt.getTime());
      entry = { state: 'next', activatesAt, retiredAt: null, publishedUntil: null };
    } else {
      // Replaced by the generation after it, which has started (it is at most the current one).
      const retiredAt = generations[index + 1]?.activatesAt ?? now;
      const publishedUntil = new Date(retiredAt.getTime() + retainMs);
      if (publishedUntil.getTime() <= now.getTime() || keys.length === 0) return;
      changes.push(publishedUntil.getTime());
      entry = { state: 'retired', activatesAt, retiredAt, publishedUntil };
    }
    (index === currentIndex ? current : others).push(...keys.map((jwk) => ({ jwk, ...entry })));
  });
  return {
    keys: [...current, ...others],
    nextChangeAt: changes.length > 0 ? new Date(Math.min(...changes)) : null,
  };
}

/**
 * The kids of stored keys whose rows may go at `now`: no longer published, by their times alone. A
 * revoked key's row stays as long as its generation would be published: its time still says when the
 * generation before it retired, and without it that one would be published again. A generation
 * revoked whole before its time never signed: no token needs it and its time counts for nothing.
 */
export function removedKids(
  base: readonly SigningJwk[],
  stored: readonly KeyGeneration[],
  now: Date,
  retainMs: number,
  revoked: RevokedKeys = NONE_REVOKED,
): string[] {
  const signed = stored.filter((generation) => !neverSigned(generation, revoked));
  const published = new Set(keyScheduleAt(base, signed, now, retainMs).keys.map((key) => key.jwk.kid));
  return stored
    .flatMap((generation) => generation.keys.map((key) => key.kid))
    .filter((kid) => !published.has(kid));
}
