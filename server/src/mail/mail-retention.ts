import { LOG_RETENTION_DAYS } from '@keycard/contract';
import {
  type JobLog,
  type PeriodicJob,
  retentionCutoff,
  startPeriodicJob,
} from '../housekeeping/periodic-job.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { pruneFinishedMail } from './outbox-repository.ts';

/** How often finished mail past the retention is deleted. */
export const MAIL_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export interface MailRetentionOptions {
  readonly db: Db;
  readonly clock: Clock;
  readonly log: JobLog;
  readonly intervalMs?: number;
}

/**
 * Sent and failed messages are kept as long as the audit log (28 days), so `mail:failed` can still
 * retry a failure for four weeks; then they are deleted. Runs at start and then every `intervalMs`.
 */
export function startMailRetention(options: MailRetentionOptions): PeriodicJob {
  const { db, clock, log, intervalMs = MAIL_PRUNE_INTERVAL_MS } = options;
  return startPeriodicJob({
    run: async (signal) => pruneFinishedMail(db, retentionCutoff(await clock.now()), signal),
    intervalMs,
    log,
    deleted: (count) => `mail outbox: deleted ${count} messages finished over ${LOG_RETENTION_DAYS} days ago`,
    failed: 'mail outbox: pruning failed',
  });
}
