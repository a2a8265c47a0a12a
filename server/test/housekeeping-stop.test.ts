import { describe, expect, it } from 'vitest';
import { type JobLog, type PeriodicJob, startPeriodicJob } from '../src/housekeeping/periodic-job.ts';
import { startHousekeeping } from '../src/housekeeping-jobs.ts';
import type { Database } from '../src/store/database.ts';
import type { PgliteClient } from '../src/store/pglite-client.ts';
import { eventually } from './mail-kit.ts';
import { isBatchedDelete, watchedDb } from './support/counting-db.ts';
import { useTestDatabase } from './support/database.ts';

/**
 * A stop of the service aborts the signal each housekeeping pass gets (periodic-job.ts), and a pass
 * starts no further deletion (store/batched-delete.ts) or vacuum once it is: a backlog then does not
 * hold the stop up to its deadline. These tests check the jobs the service starts (startHousekeeping,
 * as main.ts runs them) hand the signal on to every statement of theirs, which the tests of
 * deleteInBatches cannot: a job that dropped it on the way would delete on after a stop.
 */

const testDb = useTestDatabase();
const quietLog = { info: () => {}, error: () => {} };

/** `database`, counting the deletions run through its `db.execute` and the vacuums of its embedded client. */
function counting(database: Database): { database: Database; deletions(): number; vacuums(): number } {
  let deletions = 0;
  let vacuums = 0;
  const db = watchedDb(database.db, (statement) => {
    if (isBatchedDelete(statement)) deletions += 1;
  });
  const counted = (): Database => {
    if (database.kind === 'postgres') return { ...database, db };
    const { client } = database;
    const countingClient: PgliteClient = {
      query: (...args) => client.query(...args),
      exec: (text) => {
        if (/^VACUUM /.test(text)) vacuums += 1;
        return client.exec(text);
      },
      transaction: (callback) => client.transaction(callback),
      listen: (channel, callback) => client.listen(channel, callback),
      dumpDataDir: (compression) => client.dumpDataDir(compression),
      close: () => client.close(),
    };
    return { ...database, db, client: countingClient };
  };
  return { database: counted(), deletions: () => deletions, vacuums: () => vacuums };
}

/** The service's housekeeping jobs on `database`, their first passes (run at start) finished. */
async function started(database: Database, log: JobLog = quietLog) {
  const jobs = startHousekeeping(database, log);
  for (const job of jobs) await job.idle();
  return jobs;
}

/** A job log that keeps its lines, each with its level. */
function keptLog() {
  const lines: string[] = [];
  return {
    lines,
    log: {
      info: (line: string) => lines.push(`info ${line}`),
      error: (line: string) => lines.push(`error ${line}`),
    },
  };
}

async function stopped(jobs: readonly PeriodicJob[]) {
  for (const job of jobs) job.stop();
  for (const job of jobs) await job.idle();
}

describe("the service's housekeeping jobs", () => {
  it('are four, and a fifth on the embedded store: its vacuum; on an empty database they log nothing', async () => {
    const { lines, log } = keptLog();
    const jobs = await started(testDb(), log);
    expect(jobs).toHaveLength(testDb().kind === 'pglite' ? 5 : 4);
    for (const job of jobs) await job.runOnce();
    expect(lines).toEqual([]);
    await stopped(jobs);
  });

  it('run each of their deletions in a pass, and on the embedded store a vacuum of each table', async () => {
    const counted = counting(testDb());
    const jobs = await started(counted.database);
    const [deletions, vacuums] = [counted.deletions(), counted.vacuums()];
    for (const job of jobs) await job.runOnce();
    // Audit 1, expired state 3 (payloads, sign-outs, logout tokens), mail 1, counts and codes 2: on
    // empty tables each deletion is one statement.
    expect(counted.deletions() - deletions).toBe(7);
    if (testDb().kind === 'pglite') expect(counted.vacuums() - vacuums).toBeGreaterThan(0);
    else expect(counted.vacuums()).toBe(0);
    await stopped(jobs);
  });

  it('once stopped, start no deletion and no vacuum in a pass', async () => {
    const counted = counting(testDb());
    const jobs = await started(counted.database);
    await stopped(jobs);
    const [deletions, vacuums] = [counted.deletions(), counted.vacuums()];
    for (const job of jobs) expect(await job.runOnce()).toBe(0);
    expect(counted.deletions()).toBe(deletions);
    expect(counted.vacuums()).toBe(vacuums);
  });
});

describe('a periodic job', () => {
  it('logs a pass that failed with its reason and one that deleted rows, and nothing for one that deleted none', async () => {
    const { lines, log } = keptLog();
    // At start a failure, then (every 5 ms) 3 rows, then none.
    const outcomes = [Promise.reject(new Error('the table is gone')), Promise.resolve(3)];
    const job = startPeriodicJob({
      run: () => outcomes.shift() ?? Promise.resolve(0),
      intervalMs: 5,
      log,
      deleted: (count) => `swept ${count}`,
      failed: 'sweeping failed',
    });
    await eventually(async () => lines.length >= 2);
    // A few passes more, each deleting none.
    await new Promise((resolve) => setTimeout(resolve, 30));
    job.stop();
    await job.idle();
    expect(lines).toEqual(['error sweeping failed: the table is gone', 'info swept 3']);
  });

  it('waits in idle() for a pass runOnce started, as for its own', async () => {
    let finish = () => {};
    let calls = 0;
    const job = startPeriodicJob({
      // The first pass (at start) ends at once; the second, runOnce's, when the test says.
      run: () => {
        calls += 1;
        if (calls === 1) return Promise.resolve(0);
        return new Promise<number>((resolve) => {
          finish = () => resolve(0);
        });
      },
      intervalMs: 60_000,
      log: quietLog,
      deleted: () => '',
      failed: 'failed',
    });
    const once = job.runOnce();
    let idle = false;
    const waited = job.idle().then(() => {
      idle = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(false);
    finish();
    await once;
    await waited;
    expect(idle).toBe(true);
    job.stop();
  });
});
