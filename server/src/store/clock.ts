import { type SQL, sql } from 'drizzle-orm';
import type { Db } from './database.ts';
import { rowsOf } from './rows.ts';

/**
 * The one clock expiries and locks are measured against. In the service it is the database's clock,
 * so instances with drifting clocks agree (DESIGN §2 Codes); tests pass a fixed or stepping clock
 * instead of sleeping.
 */
export interface Clock {
  now(): Promise<Date>;
  /**
   * The same reading as an SQL expression (epoch milliseconds, float8), so a statement that needs the
   * time can read it in the same round trip instead of asking first.
   */
  nowSql(): SQL<number>;
}

/** Epoch milliseconds of a database row (float8 may arrive as a string), or an error. */
export function epochMsOf(value: unknown): Date {
  const ms = Number(value);
  if (value === null || !Number.isFinite(ms)) throw new Error('database returned no time');
  return new Date(ms);
}

/** A clock that answers `read()` (epoch milliseconds), as SQL too: for tests and fixed readings. */
export function clockReading(read: () => number): Clock {
  return {
    now: async () => new Date(read()),
    nowSql: () => sql<number>`${read()}::float8`,
  };
}

/**
 * The database keeps microseconds, a Date milliseconds: the time is rounded up to the next
 * millisecond, so a row stamped by the database a moment ago (e.g. an outbox row's
 * next_attempt_at = now()) is never later than the "now" read after it.
 */
export function databaseClock(db: Db): Clock {
  const nowSql = () => sql<number>`ceil(extract(epoch from clock_timestamp()) * 1000)::float8`;
  return {
    async now() {
      const [row] = rowsOf<{ ms: string | number }>(await db.execute(sql`select ${nowSql()} as ms`));
      return epochMsOf(row?.ms ?? null);
    },
    nowSql,
  };
}

/** A clock for tests: starts at `start`, moved explicitly with `advance`. */
export function manualClock(start = new Date('2026-01-15T10:00:00Z')): Clock & { advance(ms: number): void } {
  let current = start.getTime();
  return {
    ...clockReading(() => current),
    advance(ms: number) {
      current += ms;
    },
  };
}
