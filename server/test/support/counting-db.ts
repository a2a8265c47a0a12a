import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../../src/store/database.ts';

const dialect = new PgDialect();

/** A statement `db.execute` was given: its SQL text and bound values, as drizzle sends them. */
export interface SeenStatement {
  readonly text: string;
  readonly params: readonly unknown[];
}

/**
 * `db`, telling `seen` of each statement run through its `execute`, in its transactions too, before
 * it runs, and `answered` after it did.
 */
export function watchedDb(
  db: Db,
  seen: (statement: SeenStatement) => void,
  answered: (statement: SeenStatement) => void = () => {},
): Db {
  return Object.create(db, {
    execute: {
      value: async (query: Parameters<Db['execute']>[0]) => {
        const { sql: text, params } = dialect.sqlToQuery(query as Parameters<PgDialect['sqlToQuery']>[0]);
        const statement = { text, params };
        seen(statement);
        const answer = await db.execute(query);
        answered(statement);
        return answer;
      },
    },
    transaction: {
      value: (run: (tx: Db) => Promise<unknown>, config?: Parameters<Db['transaction']>[1]) =>
        db.transaction((tx) => run(watchedDb(tx, seen, answered)), config),
    },
  });
}

/** Whether `statement` is a batch of store/batched-delete.ts. */
export function isBatchedDelete(statement: SeenStatement): boolean {
  return /^\s*with gone as \(\s*delete from/i.test(statement.text);
}
