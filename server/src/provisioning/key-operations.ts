import { recordAudit } from '../audit/audit-log.ts';
import { parseInput } from '../errors/parse-input.ts';
import { ConflictError, NotFoundError } from '../errors/service-error.ts';
import {
  generationsOf,
  type KeyGeneration,
  type KeySchedule,
  keyScheduleAt,
  type RevokedKeys,
  removedKids,
  revocationsOf,
  type ScheduledKey,
} from '../oidc/key-schedule.ts';
import {
  baseSigningKeys,
  newSigningKey,
  type SigningJwk,
  type SigningKeySettings,
  signingAlgorithmsOf,
} from '../oidc/keys.ts';
import {
  deleteSigningKeys,
  insertRevokedSigningKeys,
  insertSigningKeys,
  lockSigningKeys,
  readSigningKeys,
} from '../oidc/oidc-repository.ts';
import type { KeyScheduleCache } from '../oidc/provider-source.ts';
import { readClockIn } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import {
  type ListSigningKeysInput,
  listSigningKeysInput,
  type RevokedSigningKeysView,
  type RevokeSigningKeysInput,
  type RotateSigningKeysInput,
  revokeSigningKeysInput,
  rotateSigningKeysInput,
  type SigningKeysView,
} from './key-schemas.ts';
import { actorDetail, originColumns } from './provisioning-audit.ts';
import { clockOf, type ProvisioningDeps } from './provisioning-deps.ts';

/** What the key commands need besides what every admin command does. */
export interface KeyOperationDeps extends ProvisioningDeps {
  /**
   * The running service's key schedule (oidc/provider-source.ts), told once a rotation or revocation
   * has committed, so this instance's next protocol request reads the keys again. Other processes
   * hear of it from the database (oidc/key-changes.ts); the admin CLI, in a process of its own, has
   * none to tell.
   */
  readonly keySchedule?: KeyScheduleCache | undefined;
}

/** A programming error, not a refusal: every door that runs key commands passes the settings. */
function settingsOf(deps: ProvisioningDeps): SigningKeySettings {
  // Stryker disable next-line ConditionalExpression: without the settings the commands fail on the undefined anyway; the message only names why
  if (!deps.signingKeys) throw new Error('this process has no signing key settings for admin commands');
  return deps.signingKeys;
}

const isoOrNull = (date: Date | null) => date?.toISOString() ?? null;

function viewOf(schedule: KeySchedule): SigningKeysView {
  return {
    keys: schedule.keys.map((key: ScheduledKey) => ({
      kid: key.jwk.kid,
      kty: key.jwk.kty,
      algorithms: signingAlgorithmsOf([key.jwk]),
      state: key.state,
      origin: key.activatesAt === null ? 'base' : 'rotation',
      signsFrom: isoOrNull(key.activatesAt),
      signsUntil: isoOrNull(key.retiredAt),
      publishedUntil: isoOrNull(key.publishedUntil),
    })),
  };
}

/** The stored keys by generation and the revoked kids, read through `db` (a transaction's, or not). */
async function storedKeys(db: Db) {
  const { rows, revoked } = await readSigningKeys(db);
  return { generations: generationsOf(rows), revoked: revocationsOf(revoked) };
}

/**
 * The base keys and what a key schedule is computed from at a given time. The base keys are read
 * before any transaction: on the embedded database a read beside an open transaction would wait for
 * it. The periods are this process's own (signingKeySettings of its environment): the admin CLI on
 * PostgreSQL uses its own, not the instances'.
 */
async function readSchedule(deps: ProvisioningDeps) {
  const settings = settingsOf(deps);
  const base = await baseSigningKeys(settings, deps.db);
  const scheduleAt = (now: Date, generations: readonly KeyGeneration[], revoked: RevokedKeys) =>
    keyScheduleAt(base, generations, now, settings.retainMs, revoked);
  return { settings, base, scheduleAt };
}

/** The key schedule now, outside any transaction (keys:list and what reads alone). */
async function scheduleNow(deps: ProvisioningDeps): Promise<KeySchedule> {
  const { scheduleAt } = await readSchedule(deps);
  // The time after the keys, as an instance reads them (oidc/provider-source.ts): a revocation
  // committed in between would otherwise show its replacements waiting and nothing signing.
  const { generations, revoked } = await storedKeys(deps.db);
  return scheduleAt(await clockOf(deps).now(), generations, revoked);
}

/**
 * Holds off every other rotation and revocation until `tx` ends, and answers the time then. What signs
 * is decided at that time, not at one read before the lock: a rotation that committed while this one
 * waited may have keys signing from a moment later than that reading, which would look as if they
 * still waited, be dropped (signFromNow) and leave the tokens they signed unverifiable.
 */
async function lockedAt(deps: ProvisioningDeps, tx: Db): Promise<Date> {
  await lockSigningKeys(tx);
  return readClockIn(tx, clockOf(deps));
}

/**
 * The ID-token algorithms the keys signing now make (oidc/keys.ts, the first the default): what a
 * client may register as id_token_signed_response_alg, as the provider offers it. Read outside any
 * transaction, like the schedule.
 */
export async function signingAlgorithmsNow(deps: ProvisioningDeps): Promise<readonly string[]> {
  const schedule = await scheduleNow(deps);
  return signingAlgorithmsOf(schedule.keys.filter((key) => key.state === 'current').map((key) => key.jwk));
}

/** keys:list: the published signing keys and their times, never a private part. */
export async function listKeys(
  deps: ProvisioningDeps,
  input: ListSigningKeysInput,
): Promise<SigningKeysView> {
  parseInput(listSigningKeysInput, input);
  return viewOf(await scheduleNow(deps));
}

/**
 * One new key in place of each signing key type (and named algorithm) that signs or waits to, so
 * clients keep their algorithm, and an RSA key when none of them signs RS256: a set stored before
 * RS256 was required (OIDC_JWKS checks it since) gains it at its next rotation, as OpenID Connect asks
 * of a provider. So every generation added signs RS256, whatever was revoked.
 */
function replacementsOf(schedule: KeySchedule): SigningJwk[] {
  const kinds = new Map<string, SigningJwk>();
  for (const { jwk, state } of schedule.keys) {
    if (state !== 'retired') kinds.set(`${jwk.kty}:${String(jwk.alg ?? '')}`, jwk);
  }
  const replacements = [...kinds.values()].map((jwk) =>
    newSigningKey(jwk.kty, typeof jwk.alg === 'string' ? jwk.alg : undefined),
  );
  return signingAlgorithmsOf(replacements).includes('RS256')
    ? replacements
    : [...replacements, newSigningKey('RSA')];
}

/** The generations stored once `keys` are added as one that signs from `activatesAt`. */
async function addGeneration(
  tx: Db,
  generations: readonly KeyGeneration[],
  keys: readonly SigningJwk[],
  activatesAt: Date,
  createdAt: Date,
): Promise<KeyGeneration[]> {
  await insertSigningKeys(
    tx,
    keys.map((jwk) => ({ kid: jwk.kid, jwk, activatesAt, createdAt })),
  );
  return [...generations, { activatesAt, keys }];
}

/**
 * Stores `keys` as a generation that signs from `now`, with no grace period, and drops the keys still
 * waiting to sign: they never signed, so no token needs them, and left in place they would replace
 * the new ones at their time. A generation is told apart by its time, so one that began this very
 * millisecond is followed a millisecond later. Answers when the new keys sign, the dropped kids and
 * the generations stored now.
 */
async function signFromNow(
  tx: Db,
  generations: readonly KeyGeneration[],
  keys: readonly SigningJwk[],
  now: Date,
) {
  const started = generations.filter((generation) => generation.activatesAt.getTime() <= now.getTime());
  const dropped = generations
    .filter((generation) => !started.includes(generation))
    .flatMap((generation) => generation.keys.map((key) => key.kid));
  await deleteSigningKeys(tx, dropped);
  const latest = started.at(-1)?.activatesAt.getTime() ?? Number.NEGATIVE_INFINITY;
  const activatesAt = new Date(Math.max(now.getTime(), latest + 1));
  return { activatesAt, dropped, generations: await addGeneration(tx, started, keys, activatesAt, now) };
}

/** A rotation's keys that sign after the grace period: nothing is dropped. */
async function afterGrace(
  tx: Db,
  generations: readonly KeyGeneration[],
  keys: readonly SigningJwk[],
  activatesAt: Date,
  now: Date,
) {
  return {
    activatesAt,
    dropped: [] as string[],
    generations: await addGeneration(tx, generations, keys, activatesAt, now),
  };
}

/**
 * keys:rotate (DESIGN §1 signing keys): adds a new key for each kind that signs now. It is published
 * at once and signs after OIDC_KEY_GRACE_MINUTES, when relying parties' cached key sets know it; the
 * keys it replaces stay published for OIDC_KEY_RETAIN_MINUTES after that, so every token they signed
 * verifies until it expires. Refused while an earlier rotation still waits to sign (conflict): a
 * second one would replace keys no relying party has seen sign yet. With `now` (a leaked key) the new
 * keys sign at once and replace any that still wait: relying parties that cached the key set fetch
 * it again for the unknown kid.
 */
export async function rotateKeys(
  deps: KeyOperationDeps,
  input: RotateSigningKeysInput,
): Promise<SigningKeysView> {
  const { now: immediately = false } = parseInput(rotateSigningKeysInput, input);
  const { settings, base, scheduleAt } = await readSchedule(deps);
  const view = await deps.db.transaction(async (tx) => {
    const now = await lockedAt(deps, tx);
    const { generations, revoked } = await storedKeys(tx);
    const schedule = scheduleAt(now, generations, revoked);
    const waiting = schedule.keys.find((key) => key.state === 'next');
    if (!immediately && waiting?.activatesAt) {
      throw new ConflictError(
        `the keys of the last rotation sign from ${waiting.activatesAt.toISOString()}; rotate again after that, or have new keys sign at once with "now" (keys:rotate --now)`,
      );
    }
    // Keys nobody verifies with any more leave the database.
    await deleteSigningKeys(tx, removedKids(base, generations, now, settings.retainMs, revoked));
    const keys = replacementsOf(schedule);
    const stored = immediately
      ? await signFromNow(tx, generations, keys, now)
      : await afterGrace(tx, generations, keys, new Date(now.getTime() + settings.graceMs), now);
    await recordAudit(tx, {
      event: 'admin',
      outcome: 'success',
      ...originColumns(deps),
      detail: actorDetail(deps, {
        command: 'keys:rotate',
        kids: keys.map((key) => key.kid).join(','),
        signsFrom: stored.activatesAt.toISOString(),
        ...(immediately ? { now: true, dropped: stored.dropped.join(',') } : {}),
      }),
    });
    return viewOf(scheduleAt(now, stored.generations, revoked));
  });
  deps.keySchedule?.invalidate();
  return view;
}

/**
 * keys:revoke (DESIGN §1 signing keys, §2): withdraws keys for good, a stored one or one of the base
 * set (OIDC_JWKS, the development keys) alike. From the commit on, no instance publishes one or signs
 * with it; the tokens it signed no longer verify at /oidc/jwks (as an id_token_hint, say). A withdrawn
 * key that signs or waits to is replaced by a new key of each kind that signs at once, without the
 * grace period: the old one is compromised anyway, and relying parties fetch the key set again for the
 * unknown kid. Not refused while an earlier rotation waits: its keys are dropped (signFromNow). Every
 * new generation signs RS256 (replacementsOf), so a revocation never leaves the provider without it.
 * An unknown kid refuses the whole request (not_found); one withdrawn before is reported and left as
 * it is.
 */
export async function revokeKeys(
  deps: KeyOperationDeps,
  input: RevokeSigningKeysInput,
): Promise<RevokedSigningKeysView> {
  const named = [...new Set(parseInput(revokeSigningKeysInput, input).kids)];
  const { base, scheduleAt } = await readSchedule(deps);
  const result = await deps.db.transaction(async (tx) => {
    const now = await lockedAt(deps, tx);
    const { generations, revoked } = await storedKeys(tx);
    const known = new Set(
      [...base, ...generations.flatMap((generation) => generation.keys)].map((key) => key.kid),
    );
    const unknown = named.filter((kid) => !known.has(kid) && !revoked.has(kid));
    if (unknown.length > 0) {
      throw new NotFoundError(
        `no signing key has the kid ${unknown.map((kid) => `"${kid}"`).join(', ')}; nothing was revoked`,
        'kids',
      );
    }
    const fresh = named.filter((kid) => !revoked.has(kid));
    const alreadyRevoked = named.filter((kid) => revoked.has(kid));
    const before = scheduleAt(now, generations, revoked);
    const signs = before.keys.some((key) => fresh.includes(key.jwk.kid) && key.state !== 'retired');
    await insertRevokedSigningKeys(tx, fresh, now);
    const replacements = signs ? replacementsOf(before) : [];
    const started = signs ? await signFromNow(tx, generations, replacements, now) : undefined;
    await recordAudit(tx, {
      event: 'admin',
      outcome: 'success',
      ...originColumns(deps),
      detail: actorDetail(deps, {
        command: 'keys:revoke',
        kids: fresh.join(','),
        alreadyRevoked: alreadyRevoked.join(','),
        replacements: replacements.map((key) => key.kid).join(','),
        signsFrom: isoOrNull(started?.activatesAt ?? null),
        dropped: started?.dropped.join(',') ?? '',
      }),
    });
    const after = scheduleAt(
      now,
      started?.generations ?? generations,
      new Map([...revoked, ...fresh.map((kid) => [kid, now] as const)]),
    );
    return {
      ...viewOf(after),
      revoked: fresh,
      alreadyRevoked,
      replacements: replacements.map((key) => key.kid),
    };
  });
  if (result.revoked.length > 0) deps.keySchedule?.invalidate();
  return result;
}
