import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/store/database.ts';
import { isTransactionConflict, retriedTransaction } from '../src/store/retried-transaction.ts';
import { rowsOf } from '../src/store/rows.ts';
import { useTestDatabase } from './support/database.ts';

/**
 * store/retried-transaction.ts on both stores: the database itself answers each SQLSTATE (a DO block
 * raising it), so what is retried is what PostgreSQL and PGlite really report, wrapped as drizzle
 * wraps it. A deadlock between real transactions: transaction-conflicts.test.ts (PostgreSQL).
 */
const database = useTestDatabase();
const db = () => database().db;

/** A statement that fails in the database with `state`. */
const failWith = (tx: Db, state: string) =>
  tx.execute(sql.raw(`do $$ begin raise exception 'conflict (test)' using errcode = '${state}'; end $$`));

async function kept(): Promise<number[]> {
  const rows = rowsOf<{ run: number }>(await db().execute(sql`select run from conflict_probe order by run`));
  return rows.map((row) => Number(row.run));
}

beforeAll(async () => {
  await db().execute(sql`create table conflict_probe (run integer not null)`);
});

/**
 * A retried transaction whose every run writes its number, then fails with the state `failing` gives
 * for that run (none: it commits). Answers how many runs there were, what it answered or threw, and
 * which runs' rows were kept.
 */
async function retried(failing: (run: number) => string | null) {
  await db().execute(sql`delete from conflict_probe`);
  let runs = 0;
  const outcome = await retriedTransaction(db(), async (tx) => {
    runs++;
    await tx.execute(sql`insert into conflict_probe (run) values (${runs})`);
    const state = failing(runs);
    if (state) await failWith(tx, state);
    return 'done';
  }).catch((error: unknown) => error);
  return { runs, outcome, kept: await kept() };
}

describe('a transaction rolled back for a conflict', () => {
  it('runs again after a deadlock, and keeps only the run that committed', async () => {
    expect(await retried((run) => (run === 1 ? '40P01' : null))).toEqual({
      runs: 2,
      outcome: 'done',
      kept: [2],
    });
  });

  it('runs again after a serialization failure', async () => {
    expect(await retried((run) => (run === 1 ? '40001' : null))).toEqual({
      runs: 2,
      outcome: 'done',
      kept: [2],
    });
  });

  it('gives up after 3 runs that all conflicted, keeping nothing and answering the conflict', async () => {
    const { runs, outcome, kept } = await retried((run) => (run % 2 === 0 ? '40001' : '40P01'));
    expect(runs).toBe(3);
    expect(isTransactionConflict(outcome)).toBe(true);
    expect(kept).toEqual([]);
  });

  it('does not run again after any other failure', async () => {
    const { runs, outcome, kept } = await retried(() => '23505');
    expect(runs).toBe(1);
    expect(outcome).toBeInstanceOf(Error);
    expect(isTransactionConflict(outcome)).toBe(false);
    expect(kept).toEqual([]);
  });
});
