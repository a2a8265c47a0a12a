import type { Db } from '../../src/store/database.ts';

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
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let done = () => {};
  const beforeDone = new Promise<void>((resolve) => {
    done = resolve;
  });
  const held = db.transaction(async (tx) => {
    await before(tx);
    done();
    await released;
  });
  // The contender starts once `before` has run (and not at all when it failed).
  await Promise.race([beforeDone, held]);
  const outcome = contender();
  // Observed now, so a refusal before the release is not reported as unhandled; awaited below.
  outcome.catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, 300));
  release();
  await held;
  return outcome;
}
