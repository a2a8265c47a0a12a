import { sql } from 'drizzle-orm';
import { rowsOf } from './store/rows.ts';
import type { Db } from './store/tables/index.ts';

/**
 * The one clock expiries and locks are measured against. In the service it is the database's clock,
 * so instances with drifting clocks agree (DESIGN §2 Codes); tests pass a fixed or stepping clock
 * instead of sleeping.
 */
export interface Clock {
  now(): Promise<Date>;
}

/**
 * The database keeps microseconds, a Date milliseconds: the time is rounded up to the next
 * millisecond, so a row stamped by the database a moment ago (e.g. an outbox row's
 * next_attempt_at = now()) is never later than the "now" read after it.
 */
export function databaseClock(db: Db): Clock {
  return {
    async now() {
      const [row] = rowsOf<{ ms: string | number }>(
        await db.execute(sql`select ceil(extract(epoch from clock_timestamp()) * 1000)::float8 as ms`),
      );
      const ms = Number(row?.ms);
      if (!Number.isFinite(ms)) throw new Error('database returned no time');
      return new Date(ms);
    },
  };
}

/** A clock for tests: starts at `start`, moved explicitly with `advance`. */
export function manualClock(start = new Date('2026-01-15T10:00:00Z')): Clock & { advance(ms: number): void } {
  let current = start.getTime();
  return {
    now: async () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
  };
}
