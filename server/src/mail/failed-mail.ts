import type { Db } from '../store/database.ts';
import { resetFailedMail, selectFailedMail } from './outbox-repository.ts';

/**
 * Failed mail for `npm run admin -- mail:failed [--retry]` (DESIGN §5). Bodies are left out: they
 * carry live verification links, which an operator's terminal has no need to show.
 */
export interface FailedMail {
  readonly id: string;
  readonly kind: string;
  readonly recipient: string;
  readonly subject: string;
  readonly createdAt: Date;
  readonly failedAt: Date;
  readonly attempts: number;
  readonly lastError: string | null;
}

/** Every message the worker gave up on, most recent failure first. */
export async function listFailedMail(db: Db): Promise<FailedMail[]> {
  const rows = await selectFailedMail(db);
  return rows.flatMap((row) => (row.failedAt === null ? [] : [{ ...row, failedAt: row.failedAt }]));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Makes failed messages due again with a fresh retry budget: all of them, or only `ids` (ids that
 * are malformed, unknown or not failed are skipped). Returns the ids that were reset; the running
 * worker sends them at its next poll. A link in an old message may have expired meanwhile, so
 * `createdAt` of listFailedMail is worth a look before retrying.
 */
export async function retryFailedMail(db: Db, ids?: readonly string[]): Promise<string[]> {
  const wanted = ids?.filter((id) => UUID.test(id));
  if (wanted !== undefined && wanted.length === 0) return [];
  return resetFailedMail(db, wanted);
}
