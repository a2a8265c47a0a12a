import { lt, sql } from 'drizzle-orm';
import type { Db } from '../store/database.ts';
import { preparedPerDb } from '../store/prepared.ts';
import { auditEvents } from '../store/tables/index.ts';

/** SQL of the audit log (STYLE §6). */

// Every sign-in attempt writes one: prepared (store/prepared.ts). The database numbers and stamps it.
const insertStatement = preparedPerDb('audit_event_insert', (db) =>
  db.insert(auditEvents).values({
    event: sql.placeholder('event'),
    outcome: sql.placeholder('outcome'),
    accountId: sql.placeholder('accountId'),
    ip: sql.placeholder('ip'),
    userAgent: sql.placeholder('userAgent'),
    // Bound as text: a bound null stays SQL null, where the column's encoder would store JSON null.
    detail: sql`${sql.placeholder('detail')}::jsonb`,
  }),
);

export async function insertAuditEvent(db: Db, row: typeof auditEvents.$inferInsert): Promise<void> {
  await insertStatement(db).execute({
    event: row.event,
    outcome: row.outcome,
    accountId: row.accountId ?? null,
    ip: row.ip ?? null,
    userAgent: row.userAgent ?? null,
    detail: row.detail ? JSON.stringify(row.detail) : null,
  });
}

/** Deletes events recorded before `cutoff`; answers how many went. */
export async function deleteAuditEventsBefore(db: Db, cutoff: Date): Promise<number> {
  const deleted = await db
    .delete(auditEvents)
    .where(lt(auditEvents.at, cutoff))
    .returning({ id: auditEvents.id });
  return deleted.length;
}
