import type { Db } from './database.ts';
import { hasSqlState } from './sql-state.ts';

/**
 * What PostgreSQL answers a transaction it rolled back so that another could go on: deadlock_detected
 * (each waited for a row the other held) and serialization_failure. Nothing of it was kept, and the
 * manual ("Serialization Failure Handling") asks the application to run it again. PGlite, with one
 * connection, never answers either.
 */
const CONFLICTS = new Set(['40P01', '40001']);

/** Runs of a transaction, the first included: a conflict is rare, three in a row mean something else. */
const TRANSACTION_RUNS = 3;

export function isTransactionConflict(error: unknown): boolean {
  return hasSqlState(error, CONFLICTS);
}

/**
 * `work` in a transaction, run again from the start (up to TRANSACTION_RUNS in all) when PostgreSQL
 * rolled it back for a conflict with another transaction. `work` must change nothing outside the
 * database, which a second run would change again; whatever follows the commit goes after this.
 * Meant for `db` itself, not a transaction: inside one, a run again would still hold what the
 * caller's transaction locked before, which may be what the other one waits for.
 */
export async function retriedTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (run >= TRANSACTION_RUNS || !isTransactionConflict(error)) throw error;
    }
  }
}
