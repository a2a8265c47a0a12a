import { deleteFinishedLogouts } from '../backchannel/backchannel-repository.ts';
import { type JobLog, type PeriodicJob, startPeriodicJob } from '../housekeeping/periodic-job.ts';
import type { Db } from '../store/database.ts';
import { deleteExpiredLogoutRequests, deleteExpiredPayloads } from './oidc-repository.ts';

/** How often protocol state whose time is up is deleted. */
export const EXPIRED_STATE_PRUNE_INTERVAL_MS = 10 * 60 * 1000;

/** Delivered or given-up logout tokens are kept this long for diagnosis (the data policy's 4 weeks). */
export const FINISHED_LOGOUT_RETENTION_DAYS = 28;

/**
 * Deletes the provider's records whose time is up (interactions, sessions, grants, codes, tokens) and
 * sign-outs nobody finished, and logout tokens finished four weeks ago. Reads already ignore them; without this every authorize request, even one
 * never signed in, would leave a row behind for good. Measured against the database clock, as the
 * reads are. Answers how many rows went.
 */
export async function pruneExpiredState(db: Db, signal?: AbortSignal): Promise<number> {
  const payloads = await deleteExpiredPayloads(db, signal);
  const logouts = await deleteExpiredLogoutRequests(db, signal);
  const logoutTokens = await deleteFinishedLogouts(db, FINISHED_LOGOUT_RETENTION_DAYS, signal);
  return payloads + logouts + logoutTokens;
}

export interface ExpiredStatePruningOptions {
  readonly db: Db;
  readonly log: JobLog;
  readonly intervalMs?: number;
}

/** Runs pruneExpiredState at start and then every `intervalMs`. */
export function startExpiredStatePruning(options: ExpiredStatePruningOptions): PeriodicJob {
  const { db, log, intervalMs = EXPIRED_STATE_PRUNE_INTERVAL_MS } = options;
  return startPeriodicJob({
    run: (signal) => pruneExpiredState(db, signal),
    intervalMs,
    log,
    deleted: (count) => `expired sign-in state: ${count} deleted`,
    failed: 'expired sign-in state: pruning failed',
  });
}
