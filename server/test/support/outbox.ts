import { asc } from 'drizzle-orm';
import type { MailKind } from '../../src/mail/mail-kinds.ts';
import type { Db } from '../../src/store/database.ts';
import { outbox } from '../../src/store/tables/index.ts';

/** Outbox rows, oldest first, optionally of one kind to one address. */
export async function outboxMails(db: Db, kind?: MailKind, to?: string) {
  const rows = await db.select().from(outbox).orderBy(asc(outbox.createdAt));
  return rows.filter(
    (row) => (kind === undefined || row.kind === kind) && (to === undefined || row.recipient === to),
  );
}
