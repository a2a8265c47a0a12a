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
  /**
   * What a prepared statement binds to its `nowMs` placeholder (PREPARED_NOW_MS): the clock's own
   * reading, or null where the database reads its clock itself.
   */
  preparedReading(): number | null;
  /**
   * now() without a round trip, for decisions a few milliseconds either way cannot change (when to
   * look for new signing keys): the last reading moved on by the local clock.
   */
  estimate(): Date;
}

/** Epoch milliseconds of a database row (float8 may arrive as a string), or an error. */
export function epochMsOf(value: unknown): Date {
  const ms = Number(value);
  if (value === null || !Number.isFinite(ms)) throw new Error('database returned no time');
  return new Date(ms);
}

/**
 * The database's clock in epoch milliseconds. It keeps microseconds, a Date milliseconds: the time is
 * rounded up to the next millisecond, so a row stamped by the database a moment ago (e.g. an outbox
 * row's next_attempt_at = now()) is never later than the "now" read after it.
 */
const DATABASE_NOW_MS = sql<number>`ceil(extract(epoch from clock_timestamp()) * 1000)::float8`;

/**
 * The clock's reading inside a prepared statement (store/prepared.ts), whose text cannot carry a
 * reading of its own: the `nowMs` placeholder, bound to `clock.preparedReading()`, else the
 * database's clock.
 */
export const PREPARED_NOW_MS = sql<number>`coalesce(${sql.placeholder('nowMs')}::float8, ${DATABASE_NOW_MS})`;

/** A clock that answers `read()` (epoch milliseconds), as SQL too: for tests and fixed readings. */
export function clockReading(read: () => number): Clock {
  return {
    now: async () => new Date(read()),
    nowSql: () => sql<number>`${read()}::float8`,
    preparedReading: read,
    estimate: () => new Date(read()),
  };
}

/**
 * `clock`'s reading through `db`, a transaction's: what a decision made under a lock the transaction
 * holds is measured against, as late as the lock (on the embedded store a reading through the
 * database beside an open transaction would wait for it).
 */
export async function readClockIn(db: Db, clock: Clock): Promise<Date> {
  const [row] = rowsOf<{ ms: string | number }>(await db.execute(sql`select ${clock.nowSql()} as ms`));
  return epochMsOf(row?.ms ?? null);
}

/** The database's clock (DATABASE_NOW_MS). */
export function databaseClock(db: Db): Clock {
  // How far the database's clock was ahead of the local one at the last reading.
  let offsetMs = 0;
  const clock: Clock = {
    async now() {
      const now = await readClockIn(db, clock);
      offsetMs = now.getTime() - Date.now();
      return now;
    },
    nowSql: () => sql<number>`${DATABASE_NOW_MS}`,
    preparedReading: () => null,
    estimate: () => new Date(Date.now() + offsetMs),
  };
  return clock;
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
