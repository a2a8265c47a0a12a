import { LOG_RETENTION_DAYS } from '@keycard/contract';
import { type JobLog, type PeriodicJob, startPeriodicJob } from '../housekeeping/periodic-job.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { pruneAudit } from './audit-log.ts';

/** How often old audit rows are deleted; a day's precision is all the data policy promises. */
export const AUDIT_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export interface AuditRetentionOptions {
  readonly db: Db;
  readonly clock: Clock;
  readonly log: JobLog;
  readonly intervalMs?: number;
}

export type AuditRetention = PeriodicJob;

/**
 * DESIGN §2 Audit log: rows are kept 28 days (the data policy's 4 weeks), then deleted. Runs once at
 * start and then every `intervalMs`; a failed pass is logged and the next one tries again.
 */
export function startAuditRetention(options: AuditRetentionOptions): AuditRetention {
  const { db, clock, log, intervalMs = AUDIT_PRUNE_INTERVAL_MS } = options;
  return startPeriodicJob({
    run: async (signal) => pruneAudit(db, await clock.now(), signal),
    intervalMs,
    log,
    deleted: (count) => `audit log: deleted ${count} events older than ${LOG_RETENTION_DAYS} days`,
    failed: 'audit log: pruning failed',
  });
}
