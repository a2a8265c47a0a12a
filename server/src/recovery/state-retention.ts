import { LOG_RETENTION_DAYS, VerificationType } from '@keycard/contract';
import { deleteIdleLoginFailures } from '../accounts/account-repository.ts';
import { deleteCodesExpiredBefore } from '../codes/code-repository.ts';
import {
  type JobLog,
  type PeriodicJob,
  retentionCutoff,
  startPeriodicJob,
} from '../housekeeping/periodic-job.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';

/** How often failure counts and codes past the retention are deleted. */
export const RECOVERY_STATE_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export interface RecoveryStateRetentionOptions {
  readonly db: Db;
  readonly clock: Clock;
  readonly log: JobLog;
  readonly intervalMs?: number;
}

/**
 * Codes kept past the retention: an unlock link however old must still say it expired (SPEC §8
 * "Unlock link expired: unlock-link-expired text"), which only its row can tell from a made-up one.
 * One is mailed for each lock; it holds no personal data beyond its account, and it goes with it.
 * Every other link answers an unknown code as it answers an expired one.
 */
const CODES_KEPT: readonly VerificationType[] = [VerificationType.LockedAfterTooManyFailedAttempts];

/**
 * Deletes what sign-in and recovery leave behind once it is older than the data policy's 4 weeks
 * (LOG_RETENTION_DAYS, as the audit log): the failure counts of identifiers nobody tried since, every
 * address ever mistyped or guessed among them (a lock in force stays), and codes that expired before
 * (but CODES_KEPT). Answers how many rows went.
 */
export async function pruneRecoveryState(db: Db, now: Date, signal?: AbortSignal): Promise<number> {
  const cutoff = retentionCutoff(now);
  return (
    (await deleteIdleLoginFailures(db, cutoff, now, signal)) +
    (await deleteCodesExpiredBefore(db, cutoff, CODES_KEPT, signal))
  );
}

/** Runs pruneRecoveryState at start and then every `intervalMs`; a failed pass is logged and retried. */
export function startRecoveryStateRetention(options: RecoveryStateRetentionOptions): PeriodicJob {
  const { db, clock, log, intervalMs = RECOVERY_STATE_PRUNE_INTERVAL_MS } = options;
  return startPeriodicJob({
    run: async (signal) => pruneRecoveryState(db, await clock.now(), signal),
    intervalMs,
    log,
    deleted: (count) =>
      `failure counts and codes: deleted ${count} untouched or expired over ${LOG_RETENTION_DAYS} days ago`,
    failed: 'failure counts and codes: pruning failed',
  });
}
