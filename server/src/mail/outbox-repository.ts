import { and, desc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { OutboxState } from '../metrics/meters.ts';
import { deleteInBatches } from '../store/batched-delete.ts';
import type { Db } from '../store/database.ts';
import { rowsOf } from '../store/rows.ts';
import { outbox } from '../store/tables/mail.ts';
import { URL_IN_TEXT } from './html.ts';

/** SQL of the mail outbox (STYLE §6: the same statements on PGlite and PostgreSQL ≥ 15). */

export type OutboxRow = typeof outbox.$inferSelect;

/** A message a worker has claimed and now owns until `locked_until`. */
export interface ClaimedMail {
  readonly id: string;
  readonly recipient: string;
  readonly subject: string;
  readonly textBody: string;
  readonly htmlBody: string;
  /** Failed attempts before this one. */
  readonly attempts: number;
}

export async function insertMail(
  db: Db,
  row: Pick<
    OutboxRow,
    'kind' | 'accountId' | 'recipient' | 'subject' | 'textBody' | 'htmlBody' | 'expiresAt' | 'codeId'
  >,
): Promise<string> {
  const [inserted] = await db.insert(outbox).values(row).returning({ id: outbox.id });
  if (!inserted) throw new Error('mail outbox insert returned no row');
  return inserted.id;
}

/**
 * The message names no code, or its code is neither spent nor superseded (whether it has expired, the
 * message's own expires_at says). An unqualified `code_id` is the message's.
 */
const codeStillLive = sql`(code_id is null or exists (
  select 1 from verification_code as c
  where c.id = code_id and c.consumed_at is null and c.superseded_at is null))`;

/**
 * Claims the most overdue message by setting its lease in one statement. `FOR UPDATE SKIP LOCKED`
 * lets concurrent claimers pass over a row another instance is claiming right now, and PostgreSQL
 * re-checks the WHERE clause on a row changed since the statement began, so a row is claimed by
 * one worker only; an expired lease (a worker that died mid-send) makes the row due again.
 */
export async function claimNextDue(db: Db, now: Date, leaseUntil: Date): Promise<ClaimedMail | undefined> {
  const at = now.toISOString();
  const result = await db.execute(sql`
    with due as (
      select id from mail_outbox
      where sent_at is null and failed_at is null and next_attempt_at <= ${at}::timestamptz
        and (locked_until is null or locked_until < ${at}::timestamptz)
        and (expires_at is null or expires_at > ${at}::timestamptz)
        and ${codeStillLive}
      order by next_attempt_at, created_at
      limit 1
      for update skip locked
    )
    update mail_outbox as m set locked_until = ${leaseUntil.toISOString()}::timestamptz
    from due where m.id = due.id
    returning m.id, m.recipient, m.subject, m.text_body, m.html_body, m.attempts`);
  const [row] = rowsOf<{
    id: string;
    recipient: string;
    subject: string;
    text_body: string;
    html_body: string;
    attempts: number;
  }>(result);
  if (!row) return undefined;
  return {
    id: row.id,
    recipient: row.recipient,
    subject: row.subject,
    textBody: row.text_body,
    htmlBody: row.html_body,
    attempts: Number(row.attempts),
  };
}

/** What a link in a stored body is replaced with once the message no longer needs it. */
export const REMOVED_LINK = '[link removed]';

/**
 * Both bodies with every http(s) link replaced by REMOVED_LINK. A link is the only place a message
 * carries a code (mail-kinds.ts), and the code table keeps only hashes, so a body without links holds
 * nothing that opens an account.
 */
function withoutLinks(now: Date) {
  const pattern = URL_IN_TEXT.source;
  return {
    textBody: sql<string>`regexp_replace(${outbox.textBody}, ${pattern}, ${REMOVED_LINK}, 'g')`,
    htmlBody: sql<string>`regexp_replace(${outbox.htmlBody}, ${pattern}, ${REMOVED_LINK}, 'g')`,
    linksRemovedAt: now,
  };
}

/**
 * Marks a message sent. Its links are removed in the same statement: once delivered, the stored copy
 * has no use for a live code. `keepLinks` is for the development mailbox, where the row is the
 * delivered message itself (it loses them when they expire, removeExpiredLinks).
 */
export async function markSent(db: Db, id: string, now: Date, keepLinks = false): Promise<void> {
  await db
    .update(outbox)
    .set({ sentAt: now, lockedUntil: null, lastError: null, ...(keepLinks ? {} : withoutLinks(now)) })
    .where(and(eq(outbox.id, id), isNull(outbox.sentAt)));
}

/** A failed attempt: counted, with its error, and either scheduled again or given up. */
export type AttemptOutcome =
  | { readonly retryAt: Date; readonly error: string }
  | { readonly failedAt: Date; readonly error: string };

export async function recordFailedAttempt(
  db: Db,
  id: string,
  attempts: number,
  outcome: AttemptOutcome,
): Promise<void> {
  await db
    .update(outbox)
    .set({
      attempts,
      lastError: outcome.error,
      lockedUntil: null,
      ...('retryAt' in outcome ? { nextAttemptAt: outcome.retryAt } : { failedAt: outcome.failedAt }),
    })
    .where(and(eq(outbox.id, id), isNull(outbox.sentAt)));
}

/** What last_error says of a message failed because its link expired before it could be delivered. */
export const EXPIRED_ERROR = 'expired: the link it carries stopped working before it could be delivered';

/**
 * Fails every unsent message whose link has expired (a long SMTP outage), so nobody receives a dead
 * link and mail:failed shows why; the link goes with it. A message being sent right now (an unexpired
 * lease) is left alone.
 */
export async function failExpired(db: Db, now: Date): Promise<number> {
  const failed = await db
    .update(outbox)
    .set({ failedAt: now, lastError: EXPIRED_ERROR, lockedUntil: null, ...withoutLinks(now) })
    .where(
      and(
        isNull(outbox.sentAt),
        isNull(outbox.failedAt),
        lte(outbox.expiresAt, now),
        or(isNull(outbox.lockedUntil), lt(outbox.lockedUntil, now)),
      ),
    )
    .returning({ id: outbox.id });
  return failed.length;
}

/**
 * Deletes every unsent message whose code was spent or superseded before it went out (a newer link
 * was requested, the address changed, the link was used): it would deliver a dead link, and holds
 * nothing anyone needs. A message being sent right now (an unexpired lease) and one given up (kept
 * for mail:failed as the record of a failure) are left alone. Answers how many went.
 */
export async function withdrawDeadMail(db: Db, now: Date): Promise<number> {
  const withdrawn = await db
    .delete(outbox)
    .where(
      and(
        isNull(outbox.sentAt),
        isNull(outbox.failedAt),
        or(isNull(outbox.lockedUntil), lt(outbox.lockedUntil, now)),
        sql`not ${codeStillLive}`,
      ),
    )
    .returning({ id: outbox.id });
  return withdrawn.length;
}

/**
 * Removes the links of finished messages whose code has expired: a failed message kept them so that
 * mail:failed --retry could still send them while they worked, and the development mailbox shows them
 * until then. Only messages whose links are still in place are looked at (links_removed_at, with an
 * index of its own), not every message of the last four weeks on every pass of every instance.
 * Answers how many messages lost their links.
 */
export async function removeExpiredLinks(db: Db, now: Date): Promise<number> {
  const cleared = await db
    .update(outbox)
    .set(withoutLinks(now))
    .where(
      and(
        isNull(outbox.linksRemovedAt),
        or(isNotNull(outbox.sentAt), isNotNull(outbox.failedAt)),
        lte(outbox.expiresAt, now),
      ),
    )
    .returning({ id: outbox.id });
  return cleared.length;
}

/** Gives a claimed message back unsent and uncounted (the worker is stopping), so it is due at once. */
export async function releaseClaim(db: Db, id: string): Promise<void> {
  await db
    .update(outbox)
    .set({ lockedUntil: null })
    .where(and(eq(outbox.id, id), isNull(outbox.sentAt)));
}

/** The newest messages first, for the development mailbox. */
export function recentMail(db: Db, limit: number): Promise<OutboxRow[]> {
  return db.select().from(outbox).orderBy(desc(outbox.createdAt), desc(outbox.id)).limit(limit);
}

export async function findMail(db: Db, id: string): Promise<OutboxRow | undefined> {
  const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
  return row;
}

/**
 * Deletes messages delivered or given up before `before` (DESIGN §2 Mail; the data policy keeps logs 4
 * weeks): a sent message holds an address and a link whose code has long expired. Unsent messages
 * stay, whatever their age. Answers how many went.
 */
export async function pruneFinishedMail(db: Db, before: Date, signal?: AbortSignal): Promise<number> {
  const finished = sql`(${lt(outbox.sentAt, before)} or ${lt(outbox.failedAt, before)})`;
  return deleteInBatches(db, outbox, finished, { signal });
}

/** Messages the worker gave up on (bodies left out), most recent failure first. */
export function selectFailedMail(db: Db) {
  return db
    .select({
      id: outbox.id,
      kind: outbox.kind,
      recipient: outbox.recipient,
      subject: outbox.subject,
      createdAt: outbox.createdAt,
      failedAt: outbox.failedAt,
      attempts: outbox.attempts,
      lastError: outbox.lastError,
    })
    .from(outbox)
    .where(and(isNotNull(outbox.failedAt), isNull(outbox.sentAt)))
    .orderBy(desc(outbox.failedAt), desc(outbox.id));
}

/**
 * Makes failed messages due again with a fresh retry budget: all of them, or only those of `ids`.
 * Answers the ids that were reset.
 */
export async function resetFailedMail(db: Db, ids?: readonly string[]): Promise<string[]> {
  const rows = await db
    .update(outbox)
    .set({ failedAt: null, attempts: 0, nextAttemptAt: sql`now()`, lockedUntil: null })
    .where(
      and(
        isNotNull(outbox.failedAt),
        isNull(outbox.sentAt),
        // A message whose link has expired, been used or been replaced stays failed: sending it now
        // would deliver a dead link.
        sql`(${outbox.expiresAt} is null or ${outbox.expiresAt} > now())`,
        codeStillLive,
        ids === undefined ? undefined : inArray(outbox.id, [...ids]),
      ),
    )
    .returning({ id: outbox.id });
  return rows.map((row) => row.id);
}

/**
 * The outbox's size for the metrics: unsent messages still to be tried, messages given up, and the
 * age of the oldest one to be tried (by the database's clock, which wrote created_at).
 */
export async function outboxCounts(db: Db): Promise<OutboxState> {
  const result = await db.execute(sql`
    select count(*) filter (where failed_at is null) as pending,
           count(*) filter (where failed_at is not null) as failed,
           coalesce(extract(epoch from now() - min(created_at) filter (where failed_at is null)), 0)
             as oldest_pending_seconds
    from mail_outbox
    where sent_at is null`);
  const [row] = rowsOf<{ pending: unknown; failed: unknown; oldest_pending_seconds: unknown }>(result);
  return {
    pending: Number(row?.pending ?? 0),
    failed: Number(row?.failed ?? 0),
    oldestPendingSeconds: Math.max(0, Number(row?.oldest_pending_seconds ?? 0)),
  };
}
