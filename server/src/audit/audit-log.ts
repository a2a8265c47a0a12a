import { retentionCutoff } from '../housekeeping/periodic-job.ts';
import type { Db } from '../store/database.ts';
import { type AuditRow, deleteAuditEventsBefore, insertAuditEvent } from './audit-repository.ts';

/** Events of DESIGN §2 Audit log. */
export type AuditEventName =
  | 'login'
  | 'lock'
  | 'unlock'
  | 'reset_request'
  | 'password_reset'
  | 'email_change'
  | 'logout'
  | 'federation'
  | 'admin';

export interface AuditEntry {
  event: AuditEventName;
  outcome: 'success' | 'failure' | 'refused';
  accountId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  detail?: Record<string, string | number | boolean | null>;
}

// The audit trail must never hold a secret, whatever a caller passes (DESIGN §2).
const SECRET_KEY = /pass|code|secret|token|session|cookie|hash/i;

function withoutSecrets(detail: AuditEntry['detail']): AuditEntry['detail'] | null {
  if (!detail) return null;
  return Object.fromEntries(Object.entries(detail).filter(([key]) => !SECRET_KEY.test(key)));
}

/** An entry as its row is written: every optional field null, the detail without secrets. */
export function auditRow(entry: AuditEntry): AuditRow {
  return {
    event: entry.event,
    outcome: entry.outcome,
    accountId: entry.accountId ?? null,
    ip: entry.ip ?? null,
    userAgent: entry.userAgent ?? null,
    detail: withoutSecrets(entry.detail),
  };
}

export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await insertAuditEvent(db, auditRow(entry));
}

/** Deletes rows older than the data policy's 4 weeks; returns how many went. */
export async function pruneAudit(db: Db, now: Date, signal?: AbortSignal): Promise<number> {
  return deleteAuditEventsBefore(db, retentionCutoff(now), signal);
}
