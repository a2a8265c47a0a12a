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

export function databaseClock(db: Db): Clock {
  return {
    async now() {
      const [row] = rowsOf<{ now: string | Date }>(await db.execute(sql`select now() as now`));
      const value = row?.now;
      if (value === undefined) throw new Error('database returned no time');
      return new Date(value);
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
