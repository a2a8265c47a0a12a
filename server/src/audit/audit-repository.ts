import { lt, sql } from 'drizzle-orm';
import { deleteInBatches } from '../store/batched-delete.ts';
import type { Db } from '../store/database.ts';
import { preparedPerDb } from '../store/prepared.ts';
import { auditEvents } from '../store/tables/index.ts';

/** SQL of the audit log (STYLE §6). */

/** An audit row as written: the database numbers and stamps it. */
export type AuditRow = Omit<typeof auditEvents.$inferInsert, 'id' | 'at'>;

/** A row's values as the audit insert's placeholders take them (the detail as JSON text). */
export function auditPlaceholders(row: AuditRow) {
  return {
    event: row.event,
    outcome: row.outcome,
    accountId: row.accountId ?? null,
    ip: row.ip ?? null,
    userAgent: row.userAgent ?? null,
    detail: row.detail ? JSON.stringify(row.detail) : null,
  };
}

/** The audit insert's values, every one a placeholder named as auditPlaceholders names it. */
export const AUDIT_VALUES = {
  event: sql.placeholder('event'),
  outcome: sql.placeholder('outcome'),
  accountId: sql.placeholder('accountId'),
  ip: sql.placeholder('ip'),
  userAgent: sql.placeholder('userAgent'),
  // Bound as text: a bound null stays SQL null, where the column's encoder would store JSON null.
  detail: sql`${sql.placeholder('detail')}::jsonb`,
};

// Every sign-in attempt writes one: prepared (store/prepared.ts). The database numbers and stamps it.
const insertStatement = preparedPerDb('audit_event_insert', (db) =>
  db.insert(auditEvents).values(AUDIT_VALUES),
);

export async function insertAuditEvent(db: Db, row: AuditRow): Promise<void> {
  await insertStatement(db).execute(auditPlaceholders(row));
}

/** Deletes events recorded before `cutoff`; answers how many went. */
export async function deleteAuditEventsBefore(db: Db, cutoff: Date, signal?: AbortSignal): Promise<number> {
  return deleteInBatches(db, auditEvents, lt(auditEvents.at, cutoff), { signal });
}
