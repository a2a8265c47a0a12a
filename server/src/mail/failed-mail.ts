import { and, desc, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../store/database.ts';
import { outbox } from '../store/tables/mail.ts';

/**
 * Failed mail for `npm run admin -- mail:failed [--retry]` (DESIGN §5). Bodies are left out: they
 * carry live verification links, which an operator's terminal has no need to show.
 */
export interface FailedMail {
  readonly id: string;
  readonly kind: string;
  readonly recipient: string;
  readonly subject: string;
  readonly createdAt: Date;
  readonly failedAt: Date;
  readonly attempts: number;
  readonly lastError: string | null;
}

/** Every message the worker gave up on, most recent failure first. */
export async function listFailedMail(db: Db): Promise<FailedMail[]> {
  const rows = await db
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
  return rows.flatMap((row) => (row.failedAt === null ? [] : [{ ...row, failedAt: row.failedAt }]));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Makes failed messages due again with a fresh retry budget: all of them, or only `ids` (ids that
 * are malformed, unknown or not failed are skipped). Returns the ids that were reset; the running
 * worker sends them at its next poll. A link in an old message may have expired meanwhile, so
 * `createdAt` of listFailedMail is worth a look before retrying.
 */
export async function retryFailedMail(db: Db, ids?: readonly string[]): Promise<string[]> {
  const wanted = ids?.filter((id) => UUID.test(id));
  if (wanted !== undefined && wanted.length === 0) return [];
  const rows = await db
    .update(outbox)
    .set({ failedAt: null, attempts: 0, nextAttemptAt: sql`now()`, lockedUntil: null })
    .where(
      and(
        isNotNull(outbox.failedAt),
        isNull(outbox.sentAt),
        // A message whose link has expired stays failed: sending it now would deliver a dead link.
        sql`(${outbox.expiresAt} is null or ${outbox.expiresAt} > now())`,
        wanted === undefined ? undefined : inArray(outbox.id, wanted),
      ),
    )
    .returning({ id: outbox.id });
  return rows.map((row) => row.id);
}
