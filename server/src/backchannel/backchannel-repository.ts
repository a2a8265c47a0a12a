import { and, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { deleteInBatches } from '../store/batched-delete.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { rowsOf } from '../store/rows.ts';
import { backchannelLogouts, oidcClients } from '../store/tables/index.ts';

/** SQL of the back-channel logout outbox (STYLE §6: the same statements on PGlite and PostgreSQL ≥ 15). */

/** One client's session id within an ended session. */
export interface ClientSession {
  readonly clientId: string;
  readonly sid: string;
}

/**
 * Queues a logout token for each of `sessions` whose client registered a back-channel logout URI;
 * answers how many were queued. Stamped with `clock`, which the worker claims by.
 */
export async function queueLogoutTokens(
  db: Db,
  clock: Clock,
  accountId: string,
  sessions: readonly ClientSession[],
): Promise<number> {
  if (sessions.length === 0) return 0;
  const listening = await db
    .select({ clientId: oidcClients.clientId })
    .from(oidcClients)
    .where(
      and(
        inArray(
          oidcClients.clientId,
          sessions.map((session) => session.clientId),
        ),
        isNotNull(oidcClients.backchannelLogoutUri),
      ),
    );
  const clientIds = new Set(listening.map((row) => row.clientId));
  const rows = sessions.filter((session) => clientIds.has(session.clientId));
  if (rows.length === 0) return 0;
  const now = sql`to_timestamp(${clock.nowSql()} / 1000.0)`;
  await db
    .insert(backchannelLogouts)
    .values(
      rows.map(({ clientId, sid }) => ({ clientId, sid, accountId, createdAt: now, nextAttemptAt: now })),
    );
  return rows.length;
}

/** A logout token a worker has claimed and owns until its lease ends. */
export interface ClaimedLogout {
  readonly id: string;
  readonly clientId: string;
  readonly accountId: string;
  readonly sid: string;
  /** Failed attempts before this one. */
  readonly attempts: number;
}

/**
 * Claims the most overdue logout token by setting its lease in one statement; `FOR UPDATE SKIP
 * LOCKED` lets instances claim side by side, each row by one worker (as the mail outbox does).
 */
export async function claimNextDueLogout(
  db: Db,
  now: Date,
  leaseUntil: Date,
): Promise<ClaimedLogout | undefined> {
  const at = now.toISOString();
  const result = await db.execute(sql`
    with due as (
      select id from backchannel_logout
      where delivered_at is null and failed_at is null and next_attempt_at <= ${at}::timestamptz
        and (locked_until is null or locked_until < ${at}::timestamptz)
      order by next_attempt_at, created_at
      limit 1
      for update skip locked
    )
    update backchannel_logout as b set locked_until = ${leaseUntil.toISOString()}::timestamptz
    from due where b.id = due.id
    returning b.id, b.client_id, b.account_id, b.sid, b.attempts`);
  const [row] = rowsOf<{ id: string; client_id: string; account_id: string; sid: string; attempts: number }>(
    result,
  );
  if (!row) return undefined;
  return {
    id: row.id,
    clientId: row.client_id,
    accountId: row.account_id,
    sid: row.sid,
    attempts: Number(row.attempts),
  };
}

/** Deletes the logout tokens still waiting to be posted to a client (one being removed). Answers how many. */
export async function dropPendingLogouts(db: Db, clientId: string): Promise<number> {
  const deleted = await db
    .delete(backchannelLogouts)
    .where(
      and(
        eq(backchannelLogouts.clientId, clientId),
        isNull(backchannelLogouts.deliveredAt),
        isNull(backchannelLogouts.failedAt),
      ),
    )
    .returning({ id: backchannelLogouts.id });
  return deleted.length;
}

export async function markLogoutDelivered(db: Db, id: string, now: Date): Promise<void> {
  await db
    .update(backchannelLogouts)
    .set({ deliveredAt: now, lockedUntil: null, lastError: null })
    .where(and(eq(backchannelLogouts.id, id), isNull(backchannelLogouts.deliveredAt)));
}

/** A failed attempt: counted, with its error, and either scheduled again or given up. */
export type LogoutAttemptOutcome =
  | { readonly retryAt: Date; readonly error: string }
  | { readonly failedAt: Date; readonly error: string };

export async function recordLogoutFailure(
  db: Db,
  id: string,
  attempts: number,
  outcome: LogoutAttemptOutcome,
): Promise<void> {
  await db
    .update(backchannelLogouts)
    .set({
      attempts,
      lastError: outcome.error,
      lockedUntil: null,
      ...('retryAt' in outcome ? { nextAttemptAt: outcome.retryAt } : { failedAt: outcome.failedAt }),
    })
    .where(and(eq(backchannelLogouts.id, id), isNull(backchannelLogouts.deliveredAt)));
}

/** Gives a claimed token back unsent and uncounted (the worker is stopping), so it is due at once. */
export async function releaseLogoutClaim(db: Db, id: string): Promise<void> {
  await db
    .update(backchannelLogouts)
    .set({ lockedUntil: null })
    .where(and(eq(backchannelLogouts.id, id), isNull(backchannelLogouts.deliveredAt)));
}

/** A logout token the worker gave up on, without what the token says (its sub and sid). */
export interface FailedLogoutRow {
  readonly id: string;
  readonly clientId: string;
  readonly createdAt: Date;
  readonly failedAt: Date | null;
  readonly attempts: number;
  readonly lastError: string | null;
}

/** Every logout token given up and not delivered since, most recent failure first. */
export function selectFailedLogouts(db: Db): Promise<FailedLogoutRow[]> {
  return db
    .select({
      id: backchannelLogouts.id,
      clientId: backchannelLogouts.clientId,
      createdAt: backchannelLogouts.createdAt,
      failedAt: backchannelLogouts.failedAt,
      attempts: backchannelLogouts.attempts,
      lastError: backchannelLogouts.lastError,
    })
    .from(backchannelLogouts)
    .where(and(isNotNull(backchannelLogouts.failedAt), isNull(backchannelLogouts.deliveredAt)))
    .orderBy(desc(backchannelLogouts.failedAt), backchannelLogouts.id);
}

/**
 * Makes the given failed logout tokens due at `now` with a fresh retry budget; answers the ids that
 * were failed and are now due (the last error stays until the next attempt replaces it).
 */
export async function resetFailedLogouts(db: Db, ids: readonly string[], now: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(backchannelLogouts)
    .set({ failedAt: null, attempts: 0, nextAttemptAt: now, lockedUntil: null })
    .where(
      and(
        inArray(backchannelLogouts.id, [...ids]),
        isNotNull(backchannelLogouts.failedAt),
        isNull(backchannelLogouts.deliveredAt),
      ),
    )
    .returning({ id: backchannelLogouts.id });
  return rows.map((row) => row.id);
}

/** Every queued logout token of a client, oldest first (tests and diagnosis). */
export function logoutTokensOf(db: Db, clientId: string) {
  return db
    .select()
    .from(backchannelLogouts)
    .where(eq(backchannelLogouts.clientId, clientId))
    .orderBy(backchannelLogouts.createdAt, backchannelLogouts.id);
}

/**
 * Deletes logout tokens delivered or given up more than `days` ago by the database clock (the data
 * policy keeps logs 4 weeks); pending ones stay. Answers how many went.
 */
export async function deleteFinishedLogouts(db: Db, days: number, signal?: AbortSignal): Promise<number> {
  const before = sql`now() - make_interval(days => ${days})`;
  return deleteInBatches(
    db,
    backchannelLogouts,
    sql`(${lt(backchannelLogouts.deliveredAt, before)} or ${lt(backchannelLogouts.failedAt, before)})`,
    { signal },
  );
}
