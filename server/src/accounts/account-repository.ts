import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  notExists,
  notInArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { AUDIT_VALUES, type AuditRow, auditPlaceholders } from '../audit/audit-repository.ts';
import { deleteInBatches } from '../store/batched-delete.ts';
import { type Clock, PREPARED_NOW_MS } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { preparedPerDb } from '../store/prepared.ts';
import {
  accounts,
  auditEvents,
  loginFailures,
  passwordHistory,
  upstreamDomains,
} from '../store/tables/index.ts';
import { identifierHash, normalizeEmail, storedEmailForm } from './identifiers.ts';

/** SQL of accounts, their password history and the login failure counters (STYLE §6). */

export type Account = typeof accounts.$inferSelect;

export async function findAccountByEmail(db: Db, email: string): Promise<Account | null> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(eq(accounts.emailNormalized, normalizeEmail(email)))
    .limit(1);
  return row ?? null;
}

// The protocol reads the account twice a sign-in (consent, token): prepared (store/prepared.ts).
// Stryker disable next-line StringLiteral: the name only lets PostgreSQL parse the statement once per connection; unnamed, it runs alike
const accountById = preparedPerDb('account_by_id', (db) =>
  db
    .select()
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder('id')))
    .limit(1),
);

export async function findAccountById(db: Db, id: string): Promise<Account | null> {
  const [row] = await accountById(db).execute({ id });
  return row ?? null;
}

// Stryker disable next-line StringLiteral: the name only lets PostgreSQL parse the statement once per connection; unnamed, it runs alike
const accountByIdShared = preparedPerDb('account_by_id_for_share', (db) =>
  db
    .select({
      id: accounts.id,
      passwordChangedAt: accounts.passwordChangedAt,
      mustChangePassword: accounts.mustChangePassword,
      disabledAt: accounts.disabledAt,
      sessionsEnded: accounts.sessionsEnded,
      updatedAt: accounts.updatedAt,
    })
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder('id')))
    .for('share'),
);

/**
 * What a resumed sign-in is bound to, read once the resume has written its session: it waits for a
 * transaction that holds the account's row (a reset, a disable, a deletion, which end the account's
 * sessions in the same transaction) and reads what that committed. Null when the account is gone.
 */
export async function findSignInBinding(
  db: Db,
  id: string,
): Promise<Pick<
  Account,
  'id' | 'passwordChangedAt' | 'mustChangePassword' | 'disabledAt' | 'sessionsEnded' | 'updatedAt'
> | null> {
  const [row] = await accountByIdShared(db).execute({ id });
  return row ?? null;
}

/**
 * Counts one ending of every session of the account (endAccountSessionsWithLogout), inside the
 * caller's transaction: a sign-in that finished before it is not resumed after it (sign-in-result.ts).
 */
export async function countSessionsEnded(db: Db, id: string): Promise<void> {
  await db
    .update(accounts)
    .set({ sessionsEnded: sql`${accounts.sessionsEnded} + 1` })
    .where(eq(accounts.id, id));
}

export interface NewAccount {
  email: string;
  displayName: string;
  locale?: string | null;
}

/** First word of the display name; used in captions that greet by first name (SPEC §4). */
export function firstNameOf(displayName: string): string {
  // Stryker disable next-line Regex,MethodExpression,StringLiteral: the name is trimmed, so one space or a run of them ends the first word alike, and split always answers a first element (the fallback is for the type)
  return displayName.trim().split(/\s+/)[0] ?? displayName.trim();
}

/**
 * Creates an account without a password; null when the address is taken. Failures counted against
 * the address while it was nobody's go (as they go when an address is taken over: replaceEmail):
 * whoever guessed at it then did not lock the person it now belongs to.
 */
export async function insertAccount(db: Db, input: NewAccount): Promise<Account | null> {
  const [row] = await db
    .insert(accounts)
    .values({
      email: storedEmailForm(input.email),
      emailNormalized: normalizeEmail(input.email),
      displayName: input.displayName.trim(),
      firstName: firstNameOf(input.displayName),
      locale: input.locale ?? null,
    })
    // Stryker disable next-line ObjectLiteral: the normalized address is the table's only unique key beside the generated id, so any conflict is on it
    .onConflictDoNothing({ target: accounts.emailNormalized })
    .returning();
  if (row) await clearFailures(db, identifierHash(row.email));
  return row ?? null;
}

/**
 * Sets a new password hash, records it in the history and clears a forced change; false (and nothing
 * written) when the account is disabled or gone.
 */
export async function storePassword(
  db: Db,
  accountId: string,
  passwordHash: string,
  at: Date,
): Promise<boolean> {
  // An account disabled since the caller read it keeps its password: a disable must not be raced by
  // a link in use (the row lock orders the two; the later one sees the other's write).
  const stored = await db
    .update(accounts)
    .set({ passwordHash, passwordChangedAt: at, mustChangePassword: false, updatedAt: at })
    .where(and(eq(accounts.id, accountId), isNull(accounts.disabledAt)))
    .returning({ id: accounts.id });
  if (stored.length === 0) return false;
  await db.insert(passwordHistory).values({ accountId, passwordHash, createdAt: at });
  return true;
}

/** What holdEnabledAccount found of an enabled account: its link to an upstream provider, if any. */
export interface HeldAccount {
  readonly externalIdpId: string | null;
}

/**
 * The account if it is there and enabled (else null), holding its row until the caller's transaction
 * ends: a disable, or a first sign-in through its organisation's provider that links it, either went
 * first and is seen here, or waits until the caller's change is committed.
 */
export async function holdEnabledAccount(db: Db, accountId: string): Promise<HeldAccount | null> {
  const [held] = await db
    .select({ externalIdpId: accounts.externalIdpId })
    .from(accounts)
    .where(and(eq(accounts.id, accountId), isNull(accounts.disabledAt)))
    .for('update');
  return held ?? null;
}

/**
 * The account as it is now, kept from being deleted until the caller's transaction ends (FOR KEY
 * SHARE, the lock a row naming the account takes anyway); null when it is gone. A deletion or a change
 * of its address (a unique key) either went first and is seen here, or waits and then deletes or
 * retires what the caller wrote with it. Unlike holdEnabledAccount it lets a change of the account's
 * other columns go on meanwhile (a reset's new password, a disable), so a caller that goes on to wait
 * for rows such a change holds (a code a reset is spending) cannot deadlock with it.
 */
export async function keepAccount(db: Db, accountId: string): Promise<Account | null> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId)).for('key share');
  return row ?? null;
}

/**
 * Records that the person holds the account's address (a mailed link used, an upstream provider's
 * word), once: the first proof's time stays.
 */
export async function markEmailVerified(db: Db, accountId: string): Promise<void> {
  await db
    .update(accounts)
    .set({ emailVerifiedAt: sql`now()` })
    .where(and(eq(accounts.id, accountId), isNull(accounts.emailVerifiedAt)));
}

/** Swaps the stored hash for one with today's parameters; history and age are unchanged. */
export async function replaceHash(db: Db, accountId: string, passwordHash: string): Promise<void> {
  await db.update(accounts).set({ passwordHash }).where(eq(accounts.id, accountId));
}

/** The most recent `limit` password hashes, newest first. */
export async function recentPasswordHashes(db: Db, accountId: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ hash: passwordHistory.passwordHash })
    .from(passwordHistory)
    .where(eq(passwordHistory.accountId, accountId))
    .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id))
    .limit(limit);
  return rows.map((row) => row.hash);
}

/**
 * Deletes the account's password hashes but the `kept` most recent, those recentPasswordHashes reads
 * (PASSWORD_HISTORY): an older one is checked against nothing, and each kept hash is one more an
 * attacker holding a copy of the database could try to crack, learning how the person picks passwords.
 */
export async function forgetOlderPasswords(db: Db, accountId: string, kept: number): Promise<void> {
  const newest = db
    .select({ id: passwordHistory.id })
    .from(passwordHistory)
    .where(eq(passwordHistory.accountId, accountId))
    .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id))
    .limit(kept);
  await db
    .delete(passwordHistory)
    .where(and(eq(passwordHistory.accountId, accountId), notInArray(passwordHistory.id, newest)));
}

/** Sets or clears disabled_at; false when the account is gone. */
export async function setDisabled(db: Db, accountId: string, disabled: boolean): Promise<boolean> {
  const changed = await db
    .update(accounts)
    .set({ disabledAt: disabled ? sql`now()` : null, updatedAt: sql`now()` })
    .where(eq(accounts.id, accountId))
    .returning({ id: accounts.id });
  return changed.length > 0;
}

/**
 * What a change that compares in its update did: `set` it (the rows it answered), found it `already`
 * so, or found the account `gone`. Of two such changes at once one sets it; the other waits for its
 * row and then finds it set.
 */
export type FlagChange = 'set' | 'already' | 'gone';

async function changeOutcome(db: Db, accountId: string, changed: readonly unknown[]): Promise<FlagChange> {
  if (changed.length > 0) return 'set';
  // Stryker disable next-line ObjectLiteral: only the row's presence is read
  const [row] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
  return row ? 'already' : 'gone';
}

/** The language of the account's mail (null: the request's, mail-language.ts). */
export async function setLocale(db: Db, accountId: string, locale: string | null): Promise<FlagChange> {
  const changed = await db
    .update(accounts)
    .set({ locale, updatedAt: sql`now()` })
    .where(and(eq(accounts.id, accountId), sql`${accounts.locale} is distinct from ${locale}`))
    .returning({ id: accounts.id });
  return changeOutcome(db, accountId, changed);
}

/** The next correct sign-in must change the password. */
export async function setMustChangePassword(db: Db, accountId: string): Promise<FlagChange> {
  const changed = await db
    .update(accounts)
    .set({ mustChangePassword: true, updatedAt: sql`now()` })
    .where(and(eq(accounts.id, accountId), eq(accounts.mustChangePassword, false)))
    .returning({ id: accounts.id });
  return changeOutcome(db, accountId, changed);
}

/** Deletes the account (its codes, history and pending sign-outs cascade); false when it was gone. */
export async function deleteAccount(db: Db, accountId: string): Promise<boolean> {
  const deleted = await db.delete(accounts).where(eq(accounts.id, accountId)).returning({ id: accounts.id });
  return deleted.length > 0;
}

/** An account's id with its address as stored and its lookup key. */
export interface AccountAddress {
  readonly id: string;
  readonly email: string;
  readonly emailNormalized: string;
}

/**
 * The accounts whose lookup key holds a character outside ASCII: an address with such a local part,
 * or one keyed before its domain was keyed in IDNA ASCII form (identifiers.ts).
 */
export function accountsKeyedOutsideAscii(db: Db): Promise<AccountAddress[]> {
  return db
    .select({ id: accounts.id, email: accounts.email, emailNormalized: accounts.emailNormalized })
    .from(accounts)
    .where(sql`octet_length(${accounts.emailNormalized}) <> char_length(${accounts.emailNormalized})`)
    .orderBy(asc(accounts.id));
}

/**
 * Gives the account the lookup key `to` in place of `from`, unless another account holds `to` or the
 * account's key is no longer `from`; answers whether it did. One statement, so a second instance
 * doing the same at its start changes nothing.
 */
export async function rekeyAccount(db: Db, id: string, from: string, to: string): Promise<boolean> {
  const changed = await db
    .update(accounts)
    .set({ emailNormalized: to })
    .where(and(eq(accounts.id, id), eq(accounts.emailNormalized, from), notExists(heldByAnother(db, to, id))))
    .returning({ id: accounts.id });
  return changed.length === 1;
}

/** The accounts other than `accountId` with the (normalised) address: a subquery for `notExists`. */
function heldByAnother(db: Db, emailNormalized: string, accountId: string) {
  return (
    db
      // Stryker disable next-line ObjectLiteral,StringLiteral: only whether a row exists is read
      .select({ one: sql`1` })
      .from(accounts)
      .where(and(eq(accounts.emailNormalized, emailNormalized), ne(accounts.id, accountId)))
  );
}

/** True when an account other than `exceptId` has the (normalized) address. */
export async function emailTaken(db: Db, emailNormalized: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    // Stryker disable next-line ObjectLiteral: only whether a row came back is read
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      and(
        eq(accounts.emailNormalized, emailNormalized),
        exceptId === undefined ? undefined : ne(accounts.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Swaps the account's address for `newEmail` (stored and normalised as every address is) unless
 * another account has it; false when it was taken. The check and the update are one statement, and
 * the unique index settles any race with a new account. The new address counts as verified, and the
 * failures counted against it while it was nobody's go (insertAccount).
 */
export async function replaceEmail(db: Db, accountId: string, newEmail: string): Promise<boolean> {
  const address = { email: storedEmailForm(newEmail), emailNormalized: normalizeEmail(newEmail) };
  const swapped = await db
    .update(accounts)
    .set({
      email: address.email,
      emailNormalized: address.emailNormalized,
      // Both callers have the person's proof of the new address: its confirmation link, or the
      // upstream provider's email_verified.
      emailVerifiedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(accounts.id, accountId), notExists(heldByAnother(db, address.emailNormalized, accountId))))
    .returning({ id: accounts.id });
  if (swapped.length === 1) await clearFailures(db, identifierHash(newEmail));
  return swapped.length === 1;
}

/** An upstream identity (provider and its `sub`) an account signs in with. */
export interface ExternalIdentity {
  readonly providerId: string;
  readonly subject: string;
}

/** The account bound to the upstream identity, if any; the unique index allows one at most. */
export async function findAccountByExternalIdentity(
  db: Db,
  identity: ExternalIdentity,
): Promise<Account | null> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(
      and(eq(accounts.externalIdpId, identity.providerId), eq(accounts.externalSubject, identity.subject)),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Links the account to the identity only while it is unbound (or bound to this provider without a
 * subject yet), so two callbacks racing for one account cannot both win; false when it was not.
 */
export async function linkExternalIdentity(
  db: Db,
  accountId: string,
  identity: ExternalIdentity,
): Promise<boolean> {
  const linked = await db
    .update(accounts)
    .set({ externalIdpId: identity.providerId, externalSubject: identity.subject, updatedAt: new Date() })
    .where(
      and(
        eq(accounts.id, accountId),
        or(
          isNull(accounts.externalIdpId),
          and(eq(accounts.externalIdpId, identity.providerId), isNull(accounts.externalSubject)),
        ),
      ),
    )
    .returning({ id: accounts.id });
  return linked.length > 0;
}

/** Binds an account just provisioned to the identity it was provisioned for. */
export async function bindExternalIdentity(
  db: Db,
  accountId: string,
  identity: ExternalIdentity,
): Promise<void> {
  await db
    .update(accounts)
    .set({ externalIdpId: identity.providerId, externalSubject: identity.subject })
    .where(eq(accounts.id, accountId));
}

/** What a sign-in attempt looks up: the address and its domain. */
export interface LoginFactsKeys {
  readonly emailNormalized: string;
  /** The domain's binding key; null: the domain cannot be bound, so nothing is looked up. */
  readonly domain: string | null;
  /** The identifier whose failure count the attempt claims (identifiers.ts identifierHash). */
  readonly identifierHash: string;
}

/** The lock rule a claim applies (DESIGN §2 Login, §5). */
export interface ClaimRule {
  /** Consecutive failures that lock the identifier (LOCKOUT_THRESHOLD). */
  readonly threshold: number;
  /** How long a lock lasts; 0 = until unlocked (LOCKOUT_MINUTES). */
  readonly minutes: number;
}

/** The part of an identifier's counter an admitted attempt answers with. */
export interface ClaimedAttempt {
  /** The attempt's place in the count, itself included. */
  readonly failureCount: number;
  /** Set when this very attempt reached the threshold and so locked the identifier. */
  readonly lockedAt: Date | null;
}

/** What a claim answers of the counter's row: ClaimedAttempt. */
const CLAIM_RETURNS = { failureCount: loginFailures.failureCount, lockedAt: loginFailures.lockedAt };

/**
 * A sign-in attempt's one statement: the clock, the account, the domain's upstream binding and the
 * attempt's claim on its identifier's failure count (claimUpsert), in one round trip: every round
 * trip costs the service and the database CPU that the password hash then lacks (login-facts.ts).
 * The claim is a data-modifying WITH, which PostgreSQL runs once and to its end whatever the rest
 * reads; the clock is read once, in a WITH of its own, so the claim is stamped with the time answered.
 * Each join matches at most one row (primary or unique keys; the claim answers one row or none), so
 * the statement answers exactly one row; `claimed` is null when the attempt was not admitted.
 */
export async function claimLoginAttempt(db: Db, clock: Clock, keys: LoginFactsKeys, rule: ClaimRule) {
  const [row] = await loginAttemptStatement(db).execute({
    nowMs: clock.preparedReading(),
    email: keys.emailNormalized,
    // A null domain equals no row's.
    domain: keys.domain,
    identifierHash: keys.identifierHash,
    threshold: rule.threshold,
    lockMinutes: rule.minutes,
  });
  // Stryker disable next-line all: left joins on one constant row always answer that row; the guard is for the type
  if (!row) throw new Error('the login attempt statement answered no row');
  const { claimedCount, claimedLockedAt, ...facts } = row;
  const claimed: ClaimedAttempt | null =
    claimedCount === null ? null : { failureCount: claimedCount, lockedAt: claimedLockedAt };
  return { ...facts, claimed };
}

// Every sign-in attempt makes this statement: prepared (store/prepared.ts).
// Stryker disable next-line StringLiteral: the name only lets PostgreSQL parse the statement once per connection; unnamed, it runs alike
const loginAttemptStatement = preparedPerDb('login_attempt', (db) => {
  // Referenced twice, and volatile where it reads the database's clock: PostgreSQL evaluates it once.
  const reading = db
    .$with('reading')
    .as(db.select({ nowMs: sql<number>`${PREPARED_NOW_MS}`.as('now_ms') }).from(sql`(select 1) as one`));
  const claim = db
    .$with('claim')
    .as(
      claimUpsert(db, sql`(select to_timestamp(${reading.nowMs} / 1000) from ${reading})`).returning(
        CLAIM_RETURNS,
      ),
    );
  return db
    .with(reading, claim)
    .select({
      nowMs: reading.nowMs,
      account: getTableColumns(accounts),
      upstreamProviderId: upstreamDomains.providerId,
      claimedCount: claim.failureCount,
      claimedLockedAt: claim.lockedAt,
    })
    .from(reading)
    .leftJoin(accounts, eq(accounts.emailNormalized, sql.placeholder('email')))
    .leftJoin(upstreamDomains, eq(upstreamDomains.domain, sql.placeholder('domain')))
    .leftJoin(claim, sql`true`);
});

/** An identifier's login failure counter and lock. */
export type LoginFailureRow = typeof loginFailures.$inferSelect;

export async function findLoginFailures(db: Db, identifierHash: string): Promise<LoginFailureRow | null> {
  const [row] = await db.select().from(loginFailures).where(eq(loginFailures.identifierHash, identifierHash));
  return row ?? null;
}

/**
 * Counts one attempt at `now`, as a sign-in's statement does (claimLoginAttempt), for a caller that
 * has no sign-in's facts to read; null: the identifier is locked and nothing was counted.
 */
export async function claimAttemptSlot(
  db: Db,
  identifierHash: string,
  now: Date,
  rule: ClaimRule,
): Promise<ClaimedAttempt | null> {
  const [claimed] = await claimStatement(db).execute({
    identifierHash,
    at: now.toISOString(),
    threshold: rule.threshold,
    lockMinutes: rule.minutes,
  });
  return claimed ?? null;
}

// Stryker disable next-line StringLiteral: the name only lets PostgreSQL parse the statement once per connection; unnamed, it runs alike
const claimStatement = preparedPerDb('login_failure_claim', (db) =>
  claimUpsert(db, sql`${sql.placeholder('at')}::timestamptz`).returning(CLAIM_RETURNS),
);

/**
 * Counts one sign-in attempt at `at` before its password is checked, in a single upsert, so no number
 * of parallel attempts gets past the threshold (DESIGN §2 Login). The attempt that reaches the
 * `threshold` placeholder locks the identifier in the same statement, for `lockMinutes` minutes (0:
 * until unlocked). While a lock is in force nothing is counted and no row is answered: the attempt is
 * not admitted. A lock whose time is up counts as no lock: the count starts afresh at this attempt,
 * and the next lock may queue its own unlock mail. Placeholders: identifierHash, threshold, lockMinutes.
 */
function claimUpsert(db: Db, at: SQL) {
  const row = loginFailures;
  const threshold = sql`${sql.placeholder('threshold')}::integer`;
  const minutes = sql`${sql.placeholder('lockMinutes')}::integer`;
  const until = sql`(case when ${minutes} > 0 then ${at} + make_interval(mins => ${minutes}) end)`;
  const ended = sql`${row.lockedUntil} is not null and ${row.lockedUntil} <= ${at}`;
  const expired = sql`(${row.lockedAt} is not null and ${ended})`;
  const count = sql`(case when ${expired} then 1 else ${row.failureCount} + 1 end)`;
  const reaches = sql`${count} >= ${threshold}`;
  return db
    .insert(row)
    .values({
      identifierHash: sql.placeholder('identifierHash'),
      failureCount: 1,
      // A first attempt locks only where one failure is the threshold.
      lockedAt: sql`(case when 1 >= ${threshold} then ${at} end)`,
      lockedUntil: sql`(case when 1 >= ${threshold} then ${until} end)`,
      updatedAt: at,
    })
    .onConflictDoUpdate({
      target: row.identifierHash,
      set: {
        failureCount: count,
        lockedAt: sql`(case when ${reaches} then ${at} end)`,
        lockedUntil: sql`(case when ${reaches} then ${until} end)`,
        unlockMailQueuedAt: sql`(case when ${expired} then null else ${row.unlockMailQueuedAt} end)`,
        updatedAt: at,
      },
      setWhere: sql`${row.lockedAt} is null or ${expired}`,
    });
}

/**
 * Marks that the unlock mail of the lock taken at `lockedAt` was queued, at `now`; false when it
 * already was (one per lock) or that lock is gone: lifted meanwhile (an unlock, a reset, a deletion),
 * and perhaps a new count started since, whose own lock will claim its own mail.
 */
export async function claimUnlockMail(
  db: Db,
  identifierHash: string,
  lockedAt: Date,
  now: Date,
): Promise<boolean> {
  const claimed = await db
    .update(loginFailures)
    .set({ unlockMailQueuedAt: now })
    .where(
      and(
        eq(loginFailures.identifierHash, identifierHash),
        eq(loginFailures.lockedAt, lockedAt),
        isNull(loginFailures.unlockMailQueuedAt),
      ),
    )
    .returning({ identifierHash: loginFailures.identifierHash });
  return claimed.length === 1;
}

/**
 * Deletes the identifier's counter if its lock has ended at `now`; a count that started afresh
 * meanwhile (claimAttemptSlot) is kept.
 */
export async function clearEndedLock(db: Db, identifierHash: string, now: Date): Promise<void> {
  await db
    .delete(loginFailures)
    .where(
      and(
        eq(loginFailures.identifierHash, identifierHash),
        isNotNull(loginFailures.lockedAt),
        lte(loginFailures.lockedUntil, now),
      ),
    );
}

/**
 * Deletes the counters of identifiers nobody tried since `before`, except a lock in force: the
 * failures of an address that is not even an account would otherwise stay for good, and the
 * identifier is only a hash of the address. A counter dropped this way starts afresh at the next
 * failure, as it does after a success. Answers how many went.
 */
export async function deleteIdleLoginFailures(
  db: Db,
  before: Date,
  now: Date,
  signal?: AbortSignal,
): Promise<number> {
  const row = loginFailures;
  return deleteInBatches(
    db,
    row,
    sql`${lt(row.updatedAt, before)} and (${isNull(row.lockedAt)} or ${lte(row.lockedUntil, now)})`,
    { signal },
  );
}

/** A success, an unlock or a password reset starts the count afresh. */
export async function clearFailures(db: Db, identifierHash: string): Promise<void> {
  await clearStatement(db).execute({ identifierHash });
}

// Stryker disable next-line StringLiteral: the name only lets PostgreSQL parse the statement once per connection; unnamed, it runs alike
const clearStatement = preparedPerDb('login_failure_clear', (db) =>
  db.delete(loginFailures).where(eq(loginFailures.identifierHash, sql.placeholder('identifierHash'))),
);

/** The identifier a sign-in's claim counted, and the lock that very claim took (ClaimedAttempt). */
export interface ClaimedCount {
  readonly identifierHash: string;
  readonly lockedAt: Date | null;
}

/**
 * A sign-in put on record: its identifier's count cleared as failuresCleared allows, when it claimed
 * one (`claimed`; null for a sign-in upstream, which claims none), and its audit row.
 */
export interface SignInRecord {
  readonly claimed: ClaimedCount | null;
  readonly audit: AuditRow;
}

/** The placeholders of a statement holding failuresCleared and the audit insert (AUDIT_VALUES). */
export function signInRecordPlaceholders(record: SignInRecord) {
  return {
    identifierHash: record.claimed?.identifierHash ?? null,
    claimedLockedAt: record.claimed?.lockedAt?.toISOString() ?? null,
    ...auditPlaceholders(record.audit),
  };
}

/**
 * The clearing of a sign-in record as a data-modifying WITH (placeholders `identifierHash`, null
 * matching no row, and `claimedLockedAt`, the time of the lock the sign-in's own claim took or null).
 * PostgreSQL runs one once and to its end whether or not the statement reads it. A success starts an
 * unlocked count afresh and lifts the lock its own claim took; any other lock (one that attempts
 * counted after its claim took) stands and nothing is cleared, so a guessing run that locked the
 * identifier meanwhile is not let off by the success it happened to overlap.
 */
export function failuresCleared(db: Db) {
  return db.$with('failures_cleared').as(
    db
      .delete(loginFailures)
      .where(
        and(
          eq(loginFailures.identifierHash, sql.placeholder('identifierHash')),
          or(
            isNull(loginFailures.lockedAt),
            eq(loginFailures.lockedAt, sql`${sql.placeholder('claimedLockedAt')}::timestamptz`),
          ),
        ),
      )
      .returning({ identifierHash: loginFailures.identifierHash }),
  );
}

/**
 * A sign-in record in one statement of its own: the clearing and the audit row. A success that
 * finishes an interaction writes both with the interaction's result instead
 * (oidc-repository.ts upsertPayloadRecording), one round trip fewer (BENCHMARKS.md, Statements per flow).
 */
export async function clearFailuresRecording(db: Db, record: SignInRecord): Promise<void> {
  await clearRecordingStatement(db).execute(signInRecordPlaceholders(record));
}

// Stryker disable next-line StringLiteral: the name only lets PostgreSQL parse the statement once per connection; unnamed, it runs alike
const clearRecordingStatement = preparedPerDb('login_failure_clear_audit', (db) => {
  const cleared = failuresCleared(db);
  return db.with(cleared).insert(auditEvents).values(AUDIT_VALUES);
});

export async function failureCount(db: Db, identifierHash: string): Promise<number> {
  const [row] = await db
    .select({ count: loginFailures.failureCount })
    .from(loginFailures)
    .where(eq(loginFailures.identifierHash, identifierHash));
  return row?.count ?? 0;
}
