import { and, desc, eq, getTableColumns, isNotNull, isNull, lte, ne, notExists, or, sql } from 'drizzle-orm';
import { AUDIT_VALUES, type AuditRow, auditPlaceholders } from '../audit/audit-repository.ts';
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
import { normalizeEmail } from './identifiers.ts';

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

/** Creates an account without a password; null when the address is taken. */
export async function insertAccount(db: Db, input: NewAccount): Promise<Account | null> {
  const [row] = await db
    .insert(accounts)
    .values({
      email: input.email.trim().normalize('NFC'),
      emailNormalized: normalizeEmail(input.email),
      displayName: input.displayName.trim(),
      firstName: firstNameOf(input.displayName),
      locale: input.locale ?? null,
    })
    // Stryker disable next-line ObjectLiteral: the normalized address is the table's only unique key beside the generated id, so any conflict is on it
    .onConflictDoNothing({ target: accounts.emailNormalized })
    .returning();
  return row ?? null;
}

/** Sets a new password hash, records it in the history and clears a forced change. */
export async function storePassword(
  db: Db,
  accountId: string,
  passwordHash: string,
  at: Date,
): Promise<void> {
  await db
    .update(accounts)
    .set({ passwordHash, passwordChangedAt: at, mustChangePassword: false, updatedAt: at })
    .where(eq(accounts.id, accountId));
  await db.insert(passwordHistory).values({ accountId, passwordHash, createdAt: at });
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

export async function setDisabled(db: Db, accountId: string, disabled: boolean): Promise<void> {
  await db
    .update(accounts)
    .set({ disabledAt: disabled ? sql`now()` : null, updatedAt: sql`now()` })
    .where(eq(accounts.id, accountId));
}

export async function setMustChangePassword(db: Db, accountId: string): Promise<void> {
  await db
    .update(accounts)
    .set({ mustChangePassword: true, updatedAt: sql`now()` })
    .where(eq(accounts.id, accountId));
}

/** Deletes the account (its codes, history and pending sign-outs cascade); false when it was gone. */
export async function deleteAccount(db: Db, accountId: string): Promise<boolean> {
  const deleted = await db.delete(accounts).where(eq(accounts.id, accountId)).returning({ id: accounts.id });
  return deleted.length > 0;
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
 * Swaps the account's address unless another account has it; false when it was taken. The check and
 * the update are one statement, and the unique index settles any race with a new account.
 */
export async function replaceEmail(
  db: Db,
  accountId: string,
  address: { email: string; emailNormalized: string },
): Promise<boolean> {
  const taken = db
    .select({ one: sql`1` })
    .from(accounts)
    .where(and(eq(accounts.emailNormalized, address.emailNormalized), ne(accounts.id, accountId)));
  const swapped = await db
    .update(accounts)
    .set({ email: address.email, emailNormalized: address.emailNormalized, updatedAt: sql`now()` })
    .where(and(eq(accounts.id, accountId), notExists(taken)))
    .returning({ id: accounts.id });
  return swapped.length === 1;
}

/** An upstream identity (provider and its `sub`) an account signs in with. */
export interface ExternalIdentity {
  readonly providerId: string;
  readonly subject: string;
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
}

/**
 * The clock, the account and the domain's upstream binding in one statement (see login-facts.ts for
 * why one; the failure counter is the attempt's own statement, claimAttemptSlot). It reads
 * federation's domain bindings too: a second statement would cost the round trip it exists to save.
 * Each join matches at most one row (primary or unique keys), so it answers exactly one row.
 */
export async function selectLoginFacts(db: Db, clock: Clock, keys: LoginFactsKeys) {
  const [row] = await loginFactsStatement(db).execute({
    nowMs: clock.preparedReading(),
    email: keys.emailNormalized,
    // A null domain equals no row's.
    domain: keys.domain,
  });
  return row;
}

// Every sign-in attempt makes these statements: prepared (store/prepared.ts).
// Stryker disable next-line StringLiteral: the name only lets PostgreSQL parse the statement once per connection; unnamed, it runs alike
const loginFactsStatement = preparedPerDb('login_facts', (db) =>
  db
    .select({
      nowMs: PREPARED_NOW_MS,
      account: getTableColumns(accounts),
      upstreamProviderId: upstreamDomains.providerId,
    })
    .from(sql`(select 1) as one`)
    .leftJoin(accounts, eq(accounts.emailNormalized, sql.placeholder('email')))
    .leftJoin(upstreamDomains, eq(upstreamDomains.domain, sql.placeholder('domain'))),
);

/** An identifier's login failure counter and lock. */
export type LoginFailureRow = typeof loginFailures.$inferSelect;

export async function findLoginFailures(db: Db, identifierHash: string): Promise<LoginFailureRow | null> {
  const [row] = await db.select().from(loginFailures).where(eq(loginFailures.identifierHash, identifierHash));
  return row ?? null;
}

/** The part of an identifier's counter an admitted attempt answers with. */
export interface ClaimedAttempt {
  /** The attempt's place in the count, itself included. */
  readonly failureCount: number;
  /** Set when this very attempt reached the threshold and so locked the identifier. */
  readonly lockedAt: Date | null;
}

/**
 * Counts one sign-in attempt before its password is checked, in a single upsert, so no number of
 * parallel attempts gets past the threshold (DESIGN §2 Login). The attempt that reaches `threshold`
 * locks the identifier in the same statement (until `lockedUntil`, null: until unlocked). While a lock
 * is in force nothing is counted and no row is answered: the attempt is not admitted. A lock whose time
 * is up counts as no lock: the count starts afresh at this attempt, and the next lock may queue its own
 * unlock mail.
 */
export async function claimAttemptSlot(
  db: Db,
  identifierHash: string,
  now: Date,
  rule: { readonly threshold: number; readonly lockedUntil: Date | null },
): Promise<ClaimedAttempt | null> {
  const until = rule.lockedUntil?.toISOString() ?? null;
  const first = rule.threshold <= 1;
  const [claimed] = await claimStatement(db).execute({
    identifierHash,
    at: now.toISOString(),
    until,
    threshold: rule.threshold,
    firstLockedAt: first ? now.toISOString() : null,
    firstLockedUntil: first ? until : null,
  });
  return claimed ?? null;
}

// Stryker disable next-line StringLiteral: the name only lets PostgreSQL parse the statement once per connection; unnamed, it runs alike
const claimStatement = preparedPerDb('login_failure_claim', (db) => {
  const row = loginFailures;
  const at = sql`${sql.placeholder('at')}::timestamptz`;
  const ended = sql`${row.lockedUntil} is not null and ${row.lockedUntil} <= ${at}`;
  const expired = sql`(${row.lockedAt} is not null and ${ended})`;
  const count = sql`(case when ${expired} then 1 else ${row.failureCount} + 1 end)`;
  const reaches = sql`${count} >= ${sql.placeholder('threshold')}::integer`;
  return db
    .insert(row)
    .values({
      identifierHash: sql.placeholder('identifierHash'),
      failureCount: 1,
      lockedAt: sql`${sql.placeholder('firstLockedAt')}::timestamptz`,
      lockedUntil: sql`${sql.placeholder('firstLockedUntil')}::timestamptz`,
      updatedAt: at,
    })
    .onConflictDoUpdate({
      target: row.identifierHash,
      set: {
        failureCount: count,
        lockedAt: sql`(case when ${reaches} then ${at} end)`,
        lockedUntil: sql`(case when ${reaches} then ${sql.placeholder('until')}::timestamptz end)`,
        unlockMailQueuedAt: sql`(case when ${expired} then null else ${row.unlockMailQueuedAt} end)`,
        updatedAt: at,
      },
      setWhere: sql`${row.lockedAt} is null or ${expired}`,
    })
    .returning({ failureCount: row.failureCount, lockedAt: row.lockedAt });
});

/** Marks that the unlock mail of the current lock was queued; false when it already was (one per lock). */
export async function claimUnlockMail(db: Db, identifierHash: string, now: Date): Promise<boolean> {
  const claimed = await db
    .update(loginFailures)
    .set({ unlockMailQueuedAt: now })
    .where(and(eq(loginFailures.identifierHash, identifierHash), isNull(loginFailures.unlockMailQueuedAt)))
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

/** A success, an unlock or a password reset starts the count afresh. */
export async function clearFailures(db: Db, identifierHash: string): Promise<void> {
  await clearStatement(db).execute({ identifierHash });
}

// Stryker disable next-line StringLiteral: the name only lets PostgreSQL parse the statement once per connection; unnamed, it runs alike
const clearStatement = preparedPerDb('login_failure_clear', (db) =>
  db.delete(loginFailures).where(eq(loginFailures.identifierHash, sql.placeholder('identifierHash'))),
);

/**
 * A sign-in's success: clears the count its claim took (and a lock it took) and writes its audit row,
 * in one statement. One round trip fewer for every success, so a success costs a failure's statements
 * but for the interaction's result (BENCHMARKS.md, Statements per flow).
 */
export async function clearFailuresRecording(db: Db, identifierHash: string, audit: AuditRow): Promise<void> {
  await clearRecordingStatement(db).execute({ identifierHash, ...auditPlaceholders(audit) });
}

// Stryker disable next-line StringLiteral: the name only lets PostgreSQL parse the statement once per connection; unnamed, it runs alike
const clearRecordingStatement = preparedPerDb('login_failure_clear_audit', (db) => {
  // A data-modifying WITH runs once and to its end whether or not the statement reads it (PostgreSQL).
  const cleared = db.$with('cleared').as(
    db
      .delete(loginFailures)
      .where(eq(loginFailures.identifierHash, sql.placeholder('identifierHash')))
      .returning({ identifierHash: loginFailures.identifierHash }),
  );
  return db.with(cleared).insert(auditEvents).values(AUDIT_VALUES);
});

export async function failureCount(db: Db, identifierHash: string): Promise<number> {
  const [row] = await db
    .select({ count: loginFailures.failureCount })
    .from(loginFailures)
    .where(eq(loginFailures.identifierHash, identifierHash));
  return row?.count ?? 0;
}
