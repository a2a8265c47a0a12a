import { recordAudit } from '../audit/audit-log.ts';
import { parseInput } from '../errors/parse-input.ts';
import { ConflictError } from '../errors/service-error.ts';
import {
  generationsOf,
  type KeyGeneration,
  type KeySchedule,
  keyScheduleAt,
  removedKids,
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
  insertSigningKeys,
  listSigningKeys,
  lockSigningKeys,
} from '../oidc/oidc-repository.ts';
import {
  type ListSigningKeysInput,
  listSigningKeysInput,
  type RotateSigningKeysInput,
  rotateSigningKeysInput,
  type SigningKeysView,
} from './key-schemas.ts';
import { actorDetail, originColumns } from './provisioning-audit.ts';
import { clockOf, type ProvisioningDeps } from './provisioning-deps.ts';

/** A programming error, not a refusal: every door that runs key commands passes the settings. */
function settingsOf(deps: ProvisioningDeps): SigningKeySettings {
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

/**
 * The key schedule now. The base keys and the time are read before any transaction: on the embedded
 * database a read beside an open transaction would wait for it.
 */
async function readSchedule(deps: ProvisioningDeps) {
  const settings = settingsOf(deps);
  const base = await baseSigningKeys(settings, deps.db);
  const now = await clockOf(deps).now();
  const scheduleOf = (generations: readonly KeyGeneration[]) =>
    keyScheduleAt(base, generations, now, settings.retainMs);
  return { settings, now, scheduleOf };
}

/**
 * The ID-token algorithms the keys signing now make (oidc/keys.ts, the first the default): what a
 * client may register as id_token_signed_response_alg, as the provider offers it. Read outside any
 * transaction, like the schedule.
 */
export async function signingAlgorithmsNow(deps: ProvisioningDeps): Promise<readonly string[]> {
  const { scheduleOf } = await readSchedule(deps);
  const schedule = scheduleOf(generationsOf(await listSigningKeys(deps.db)));
  return signingAlgorithmsOf(schedule.keys.filter((key) => key.state === 'current').map((key) => key.jwk));
}

/** keys:list: the published signing keys and their times, never a private part. */
export async function listKeys(
  deps: ProvisioningDeps,
  input: ListSigningKeysInput,
): Promise<SigningKeysView> {
  parseInput(listSigningKeysInput, input);
  const { scheduleOf } = await readSchedule(deps);
  return viewOf(scheduleOf(generationsOf(await listSigningKeys(deps.db))));
}

/**
 * One new key in place of each signing key type (and named algorithm), so clients keep their
 * algorithm, and an RSA key when none of them signs RS256: a set stored before RS256 was required
 * (OIDC_JWKS checks it since) gains it at its next rotation, as OpenID Connect asks of a provider.
 */
function replacementsOf(schedule: KeySchedule): SigningJwk[] {
  const kinds = new Map<string, SigningJwk>();
  for (const { jwk, state } of schedule.keys) {
    if (state === 'current') kinds.set(`${jwk.kty}:${String(jwk.alg ?? '')}`, jwk);
  }
  const replacements = [...kinds.values()].map((jwk) =>
    newSigningKey(jwk.kty, typeof jwk.alg === 'string' ? jwk.alg : undefined),
  );
  return signingAlgorithmsOf(replacements).includes('RS256')
    ? replacements
    : [...replacements, newSigningKey('RSA')];
}

/**
 * keys:rotate (DESIGN §1 signing keys): adds a new key for each kind that signs now. It is published
 * at once and signs after OIDC_KEY_GRACE_MINUTES, when relying parties' cached key sets know it; the
 * keys it replaces stay published for OIDC_KEY_RETAIN_MINUTES after that, so every token they signed
 * verifies until it expires. Refused while an earlier rotation still waits to sign (conflict): a
 * second one would replace keys no relying party has seen sign yet.
 */
export async function rotateKeys(
  deps: ProvisioningDeps,
  input: RotateSigningKeysInput,
): Promise<SigningKeysView> {
  parseInput(rotateSigningKeysInput, input);
  const { settings, now, scheduleOf } = await readSchedule(deps);
  return deps.db.transaction(async (tx) => {
    await lockSigningKeys(tx);
    const generations = generationsOf(await listSigningKeys(tx));
    const schedule = scheduleOf(generations);
    const waiting = schedule.keys.find((key) => key.state === 'next');
    if (waiting?.activatesAt) {
      throw new ConflictError(
        `the keys of the last rotation sign from ${waiting.activatesAt.toISOString()}; rotate again after that`,
      );
    }
    // Keys nobody verifies with any more leave the database.
    await deleteSigningKeys(tx, removedKids(generations, schedule));
    const activatesAt = new Date(now.getTime() + settings.graceMs);
    const keys = replacementsOf(schedule);
    await insertSigningKeys(
      tx,
      keys.map((jwk) => ({ kid: jwk.kid, jwk, activatesAt, createdAt: now })),
    );
    await recordAudit(tx, {
      event: 'admin',
      outcome: 'success',
      ...originColumns(deps),
      detail: actorDetail(deps, {
        command: 'keys:rotate',
        kids: keys.map((key) => key.kid).join(','),
        signsFrom: activatesAt.toISOString(),
      }),
    });
    return viewOf(scheduleOf([...generations, { activatesAt, keys }]));
  });
}
