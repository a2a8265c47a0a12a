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

describe('a transaction rolled back for a conflict', () => {
  it('runs again after a deadlock, and keeps only the run that committed', async () => {
    await db().execute(sql`delete from conflict_probe`);
    let runs = 0;
    const answer = await retriedTransaction(db(), async (tx) => {
      runs++;
      await tx.execute(sql`insert into conflict_probe (run) values (${runs})`);
      if (runs === 1) await failWith(tx, '40P01');
      return 'done';
    });
    expect(answer).toBe('done');
    expect(runs).toBe(2);
    expect(await kept()).toEqual([2]);
  });

  it('runs again after a serialization failure', async () => {
    await db().execute(sql`delete from conflict_probe`);
    let runs = 0;
    await retriedTransaction(db(), async (tx) => {
      runs++;
      await tx.execute(sql`insert into conflict_probe (run) values (${runs})`);
      if (runs === 1) await failWith(tx, '40001');
    });
    expect(runs).toBe(2);
    expect(await kept()).toEqual([2]);
  });

  it('gives up after 3 runs that all conflicted, keeping nothing and answering the conflict', async () => {
    await db().execute(sql`delete from conflict_probe`);
    let runs = 0;
    const failure = await retriedTransaction(db(), async (tx) => {
      runs++;
      await tx.execute(sql`insert into conflict_probe (run) values (${runs})`);
      await failWith(tx, runs % 2 === 0 ? '40001' : '40P01');
    }).catch((error: unknown) => error);
    expect(runs).toBe(3);
    expect(isTransactionConflict(failure)).toBe(true);
    expect(await kept()).toEqual([]);
  });

  it('does not run again after any other failure', async () => {
    await db().execute(sql`delete from conflict_probe`);
    let runs = 0;
    const failure = await retriedTransaction(db(), async (tx) => {
      runs++;
      await tx.execute(sql`insert into conflict_probe (run) values (${runs})`);
      await failWith(tx, '23505');
    }).catch((error: unknown) => error);
    expect(runs).toBe(1);
    expect(isTransactionConflict(failure)).toBe(false);
    expect(failure).toBeInstanceOf(Error);
    expect(await kept()).toEqual([]);
  });
});
