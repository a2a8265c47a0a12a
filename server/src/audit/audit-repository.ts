import { lt } from 'drizzle-orm';
import type { Db } from '../store/database.ts';
import { auditEvents } from '../store/tables/index.ts';

/** SQL of the audit log (STYLE §6). */

export async function insertAuditEvent(db: Db, row: typeof auditEvents.$inferInsert): Promise<void> {
  await db.insert(auditEvents).values(row);
}

/** Deletes events recorded before `cutoff`; answers how many went. */
export async function deleteAuditEventsBefore(db: Db, cutoff: Date): Promise<number> {
  const deleted = await db
    .delete(auditEvents)
    .where(lt(auditEvents.at, cutoff))
    .returning({ id: auditEvents.id });
  return deleted.length;
}
