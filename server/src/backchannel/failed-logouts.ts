import type { Db } from '../store/database.ts';
import { resetFailedLogouts, selectFailedLogouts } from './backchannel-repository.ts';

/**
 * Logout tokens the worker gave up on, for `npm run admin -- backchannel:failed` (as mail:failed is
 * for mail): which client, when, how often tried and the last error. What the token said (the
 * person's sub, the session's sid) is left out: the operator needs to know which relying party is
 * unreachable, not who signed out.
 */
export interface FailedLogout {
  readonly id: string;
  readonly clientId: string;
  readonly createdAt: Date;
  readonly failedAt: Date;
  readonly attempts: number;
  readonly lastError: string | null;
}

/** Every logout token given up, most recent failure first. */
export async function listFailedLogouts(db: Db): Promise<FailedLogout[]> {
  const rows = await selectFailedLogouts(db);
  return rows.flatMap((row) => (row.failedAt === null ? [] : [{ ...row, failedAt: row.failedAt }]));
}

/**
 * Makes failed logout tokens due again with a fresh retry budget (ten attempts over about an hour):
 * the worker signs a new token for each at its next pass after `now` (read by the worker's clock).
 * Answers the ids that were reset.
 */
export function retryFailedLogouts(db: Db, ids: readonly string[], now: Date): Promise<string[]> {
  return resetFailedLogouts(db, ids, now);
}
