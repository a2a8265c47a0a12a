import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './database.ts';
import { rowsOf } from './rows.ts';

/**
 * Rows a clean-up deletes per statement. One statement for everything a job finds would hold its row
 * locks, and write its whole WAL, until the last row is gone: after a long stop or a retention made
 * shorter, that is millions of rows in one transaction. In statements of this size each commits on
 * its own, a concurrent write waits for one batch at most, and nothing of the rows is read back.
 */
export const DELETE_BATCH_ROWS = 5000;

/** Before the first row of any table: the physical address every batch's rows come after. */
const BEFORE_FIRST_ROW = '(0,0)';

export interface BatchOptions {
  /** Rows a statement deletes; DELETE_BATCH_ROWS unless given. */
  readonly batch?: number;
  /** Once aborted (the service stops), no further statement starts; what went is answered. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Deletes the rows of `table` for which `where` holds, `batch` rows a statement, until a statement
 * finds fewer or `signal` is aborted; answers how many went. Each statement picks its rows by their
 * physical address (`ctid`), after the last one the statement before deleted, so it reads on from
 * there (a TID range scan) instead of from the table's first page through the rows already deleted,
 * which stay there until vacuum: a backlog of millions is read about once, not once a batch. `where`
 * is checked again as the rows are deleted, so a row another transaction changed meanwhile goes only
 * if it still matches. A row the scan passed (one changed meanwhile, or one before where a large
 * table's synchronised scan started) is deleted at the next pass. Each batch is a transaction of its
 * own, without the statement time bound of requests. Meant for `db` itself: inside a transaction the
 * batches would be one transaction again.
 */
export async function deleteInBatches(
  db: Db,
  table: PgTable,
  where: SQL,
  { batch = DELETE_BATCH_ROWS, signal }: BatchOptions = {},
): Promise<number> {
  if (!Number.isSafeInteger(batch) || batch < 1)
    throw new RangeError(`a batch of ${batch} rows deletes nothing`);
  let total = 0;
  let after = BEFORE_FIRST_ROW;
  for (;;) {
    if (signal?.aborted) return total;
    const [counted] = rowsOf<{ n: number; last: string | null }>(
      await db.transaction(async (tx) => {
        // Not a request's statement_timeout (POSTGRES_TIME_BOUNDS, postgres-time-bounds.ts): the batch that
        // finds the last rows reads on to the table's end, which on a large table can take longer.
        await tx.execute(sql`set local statement_timeout = 0`);
        return tx.execute(sql`
          with gone as (
            delete from ${table}
            where ctid = any(array(
                select ctid from ${table} where ctid > ${after}::tid and (${where}) limit ${batch}
              ))
              and (${where})
            returning ctid
          )
          select count(*)::int as n, max(ctid)::text as last from gone`);
      }),
    );
    // Stryker disable next-line all: an aggregate without grouping answers exactly one row
    const { n, last } = counted ?? { n: 0, last: null };
    total += n;
    if (n < batch) return total;
    // Stryker disable next-line ConditionalExpression: a full batch always names its last row; this tells the type
    if (last === null) return total;
    after = last;
  }
}
