import type { Db } from './database.ts';

/**
 * A statement built once per database object and then reused, prepared under `name` (unique per
 * statement text). Building a query costs drizzle about as much CPU on the service's main thread as
 * the round trip itself (0.1–0.2 ms, BENCHMARKS.md), and a named statement is parsed and planned by
 * PostgreSQL once per connection, not per use.
 *
 * A prepared query runs on the object it was built on. So each transaction (an object of its own)
 * gets its own, built at its first use there: a statement a caller runs inside a transaction never
 * goes around it on the pool.
 */
export function preparedPerDb<Query>(
  name: string,
  build: (db: Db) => { prepare(name: string): Query },
): (db: Db) => Query {
  const built = new WeakMap<Db, Query>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db).prepare(name);
      built.set(db, query);
    }
    return query;
  };
}
