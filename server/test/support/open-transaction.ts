import { sql } from 'drizzle-orm';
import type { Database, Db } from '../../src/store/database.ts';
import { rowsOf } from '../../src/store/rows.ts';

/** A transaction held open between two steps of its own (holdTransaction). */
export interface HeldTransaction {
  /** Settles once `before` has run: the transaction holds what it wrote and locked. */
  readonly held: Promise<void>;
  /** Lets the transaction go on: it runs `after` and commits. */
  release(): void;
  /** Settles when the transaction has committed (or failed). */
  readonly done: Promise<void>;
}

/** A transaction on `db` that runs `before`, waits for `release()`, then runs `after` and commits. */
export function holdTransaction(
  db: Db,
  before: (tx: Db) => Promise<void>,
  after: (tx: Db) => Promise<void> = async () => {},
): HeldTransaction {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let ready = () => {};
  const beforeDone = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const done = db.transaction(async (tx) => {
    await before(tx);
    ready();
    await released;
    await after(tx);
  });
  // Settles when `before` has run, or with its failure.
  const held = Promise.race([beforeDone, done]);
  return { held, release, done };
}

/**
 * Runs `contender` while a transaction on `db` that did `before` is held open, and lets that
 * transaction commit 300 ms later: long enough for a contender that does not wait for it to have
 * finished. Answers the contender's outcome. On PostgreSQL the two run on two connections and only
 * locks and indexes order them; PGlite runs one transaction at a time, so there the contender waits.
 */
export async function againstOpenTransaction<T>(
  db: Db,
  before: (tx: Db) => Promise<void>,
  contender: () => Promise<T>,
): Promise<T> {
  const transaction = holdTransaction(db, before);
  // The contender starts once `before` has run (and not at all when it failed).
  await transaction.held;
  const outcome = contender();
  // Observed now, so a refusal before the release is not reported as unhandled; awaited below.
  outcome.catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, 300));
  transaction.release();
  await transaction.done;
  return outcome;
}

/** Until a session of `database` other than the asking one waits for a lock (PostgreSQL only). */
async function untilAnotherSessionWaitsForALock(db: Db): Promise<void> {
  for (let tries = 0; tries < 250; tries++) {
    const [waiting] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
      ),
    );
    if ((waiting?.n ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no session waited for a lock within 5 s');
}

/**
 * Lets `held` go on once another session of `database` waits for a lock: on PostgreSQL, the
 * contender the test started; PGlite runs one transaction at a time, so there at once. Released even
 * when none waits.
 */
export async function releaseOnceWaitedFor(database: Database, held: HeldTransaction): Promise<void> {
  try {
    if (database.kind === 'postgres') await untilAnotherSessionWaitsForALock(database.db);
  } finally {
    held.release();
  }
}
