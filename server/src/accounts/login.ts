import { setTimeout as sleep } from 'node:timers/promises';
import { type Language, VerificationType } from '@keycard/contract';
import { auditRow, recordAudit } from '../audit/audit-log.ts';
import { issueCode } from '../codes/codes.ts';
import type { CodeLifetimes, Config } from '../config.ts';
import { type HashMeter, type SignInMeter, UNMEASURED } from '../metrics/meters.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import {
  type Account,
  claimUnlockMail,
  clearFailuresRecording,
  keepAccount,
  replaceHash,
  type SignInRecord,
} from './account-repository.ts';
import type { LockoutPolicy } from './lockout.ts';
import { claimLoginFacts, type LoginFacts } from './login-facts.ts';
import {
  type HashVerifier,
  hashPassword,
  measuredVerifier,
  needsRehash,
  verifyArgon2,
  verifyPassword,
} from './password-hash.ts';

export interface LoginRules {
  lockout: LockoutPolicy;
  /** PASSWORD_MAX_AGE_DAYS; 0 = passwords never expire by age. */
  passwordMaxAgeDays: number;
  /** Lifetimes of codes (DESIGN §2 Codes); login issues the PasswordExpired one. */
  codeLifetimes: CodeLifetimes;
}

export interface LoginDeps {
  db: Db;
  clock: Clock;
  rules: LoginRules;
  /** The one argon2 verification of an attempt (password-hash.ts). */
  verifyHash: HashVerifier;
  /** Counts each attempt's outcome and each lock (metrics). */
  signIns: SignInMeter;
  /**
   * Queues the unlock mail of a fresh lock, inside the transaction that claimed it (one per lock);
   * `language` is the failed attempt's, for an account without a language of its own;
   * `flowLanguage` the one its sign-in asked for (`ui_locales`), which wins.
   */
  onLocked: (tx: Db, account: Account, language: Language, flowLanguage?: Language | null) => Promise<void>;
  /**
   * Wakes the mail worker once that transaction has committed: woken inside it, the worker's pass
   * could run before the commit, find nothing and leave the mail to its next poll.
   */
  nudgeMail?: () => void;
  /** Waits `ms` (the answer floor of an attempt that locks); a timer of its own in tests. */
  sleep: (ms: number) => Promise<void>;
}

/**
 * The least time an attempt that takes the lock answers in, from its count: it queues the account's
 * unlock mail (a transaction of several statements) where an unknown address has none, so without the
 * floor its answer would come later for an account than for nobody (DESIGN §2: the lock neither
 * reveals accounts, and timing does not tell them apart). It covers the hash and the mail with room on
 * a loaded host, as the forgot-password answer's floor does; a lock is taken once a lock period.
 */
export const LOCKING_ATTEMPT_MIN_MS = 250;

export interface LoginAttempt {
  email: string;
  password: string;
  ip: string | null;
  /** The request's language (mail to an account without a language of its own). */
  language: Language;
  /** The language the sign-in asked for (`ui_locales`); the unlock mail of a lock it causes uses it. */
  flowLanguage?: Language | null;
}

/**
 * Puts a successful attempt on record (clearing its count, writing its audit row): by default in a
 * statement of its own; the sign-in route writes it with the interaction's result instead
 * (oidc/sign-in-result.ts). attemptLogin answers `authenticated` only once it has resolved.
 */
export type SuccessRecorder = (account: Account, record: SignInRecord) => Promise<void>;

export type LoginResult =
  | { outcome: 'authenticated'; account: Account }
  | { outcome: 'password_expired'; account: Account; code: string }
  | { outcome: 'locked' }
  | { outcome: 'failed' };

const DAY_MS = 24 * 60 * 60 * 1000;

function passwordExpired(account: Account, now: Date, maxAgeDays: number): boolean {
  if (account.mustChangePassword) return true;
  if (maxAgeDays <= 0 || account.passwordChangedAt === null) return false;
  return now.getTime() - account.passwordChangedAt.getTime() > maxAgeDays * DAY_MS;
}

/**
 * DESIGN §2 Login. The attempt is counted before its password is looked at, and the same statement
 * decides the lock (claimLoginFacts, with the attempt's facts), so no number of parallel attempts checks more passwords than
 * LOCKOUT_THRESHOLD allows; a success clears the count. Every path verifies exactly one argon2 hash
 * (the dummy for unknown, password-less, federated or locked identifiers) so the answer's timing does
 * not tell accounts apart.
 */
export async function attemptLogin(
  deps: LoginDeps,
  attempt: LoginAttempt,
  recordSuccess: SuccessRecorder = (_account, record) => clearFailuresRecording(deps.db, record),
): Promise<LoginResult> {
  const facts = await claimLoginFacts(deps.db, deps.clock, attempt.email, deps.rules.lockout);
  // Started with the count, whichever way the attempt turns out (LOCKING_ATTEMPT_MIN_MS).
  const floor = facts.claim.admitted && facts.claim.locks ? deps.sleep(LOCKING_ATTEMPT_MIN_MS) : undefined;
  try {
    return await judgeAttempt(deps, attempt, facts, recordSuccess);
  } finally {
    await floor;
  }
}

/** The attempt whose place in the count `facts` holds: its password checked, its outcome recorded. */
async function judgeAttempt(
  deps: LoginDeps,
  attempt: LoginAttempt,
  facts: LoginFacts,
  recordSuccess: SuccessRecorder,
): Promise<LoginResult> {
  const { db, clock, rules } = deps;
  const { now, identifierHash: id, account, upstreamProviderId: upstreamId, claim } = facts;
  // An address that signs in upstream (linked, or of a bound domain) has no usable local password:
  // its organisation decides who may sign in, so a password kept from before cannot outlive an
  // offboarding there (DESIGN §1 Federation). The dummy hash keeps the timing the same.
  const federated = account?.externalIdpId != null || upstreamId !== null;
  const usableHash = !claim.admitted || federated ? null : (account?.passwordHash ?? null);
  // While locked even the right password is not checked against the account: no password oracle.
  const matches = await verifyPassword(usableHash, attempt.password, deps.verifyHash);
  const accountId = account?.id ?? null;

  if (!claim.admitted) {
    await recordAudit(db, {
      event: 'login',
      outcome: 'refused',
      accountId,
      ip: attempt.ip,
      detail: { reason: 'locked' },
    });
    deps.signIns.signedIn('locked');
    return { outcome: 'locked' };
  }

  // Stryker disable next-line OptionalChaining: `matches` is true only after an account's own hash was verified, so `account` is set whenever this is read
  if (matches && account?.passwordHash && account.disabledAt === null) {
    if (needsRehash(account.passwordHash))
      await replaceHash(db, account.id, await hashPassword(attempt.password));
    // The attempt was counted like every other: the success clears the count and the lock it took
    // (no other lock), in the statement that puts it on record.
    const claimed = { identifierHash: id, lockedAt: claim.lockedAt };
    if (passwordExpired(account, now, rules.passwordMaxAgeDays)) {
      const code = await issueCode(db, clock, rules.codeLifetimes, {
        accountId: account.id,
        type: VerificationType.PasswordExpired,
      });
      await clearFailuresRecording(db, {
        claimed,
        audit: auditRow({
          event: 'login',
          outcome: 'refused',
          accountId,
          ip: attempt.ip,
          detail: { reason: 'password_expired' },
        }),
      });
      deps.signIns.signedIn('expired');
      return { outcome: 'password_expired', account, code };
    }
    await recordSuccess(account, {
      claimed,
      audit: auditRow({ event: 'login', outcome: 'success', accountId, ip: attempt.ip }),
    });
    deps.signIns.signedIn('success');
    return { outcome: 'authenticated', account };
  }

  // The failure is on record already: the claim counted it.
  await recordAudit(db, { event: 'login', outcome: 'failure', accountId, ip: attempt.ip });
  deps.signIns.signedIn('wrong');
  const { lockedAt } = claim;
  if (lockedAt === null) return { outcome: 'failed' };
  await recordAudit(db, { event: 'lock', outcome: 'success', accountId, ip: attempt.ip });
  deps.signIns.lockedOut();
  if (account) {
    const claimed = await db.transaction(async (tx) => {
      // The account's row before the count's: an unlock by link, a confirmed change of address and a
      // deletion lock the account and then clear its count, so the other way round a sign-in locking
      // it at that moment deadlocked with them. What is read here is what they committed: the mail
      // goes to the account as it is now, enabled and still at the address that locked, and only for
      // the lock this attempt took, not a count started after it was lifted.
      const current = await keepAccount(tx, account.id);
      if (current?.disabledAt !== null || current.emailNormalized !== account.emailNormalized) return false;
      if (!(await claimUnlockMail(tx, id, lockedAt, now))) return false;
      await deps.onLocked(tx, current, attempt.language, attempt.flowLanguage);
      return true;
    });
    if (claimed) deps.nudgeMail?.();
  }
  return { outcome: 'locked' };
}

type LoginConfig = Pick<
  Config,
  'lockoutThreshold' | 'lockoutMinutes' | 'passwordMaxAgeDays' | 'codeLifetimes'
>;

/** The login rules of the configuration (DESIGN §2 Login, §5). */
function loginRulesOf(config: LoginConfig): LoginRules {
  return {
    lockout: { threshold: config.lockoutThreshold, minutes: config.lockoutMinutes },
    passwordMaxAgeDays: config.passwordMaxAgeDays,
    codeLifetimes: config.codeLifetimes,
  };
}

/**
 * The sign-in's dependencies in the service: the configured rules, argon2 itself unless given, and
 * the app's meters (none unless given).
 */
export function createLoginDeps(
  config: LoginConfig,
  {
    verifyHash = verifyArgon2,
    meters = UNMEASURED,
    sleep: wait = (ms) => sleep(ms),
    ...parts
  }: Pick<LoginDeps, 'db' | 'clock' | 'onLocked' | 'nudgeMail'> & {
    verifyHash?: HashVerifier | undefined;
    meters?: { readonly signIns: SignInMeter; readonly hashes: HashMeter };
    sleep?: LoginDeps['sleep'];
  },
): LoginDeps {
  return {
    ...parts,
    sleep: wait,
    rules: loginRulesOf(config),
    verifyHash: measuredVerifier(verifyHash, meters.hashes),
    signIns: meters.signIns,
  };
}
