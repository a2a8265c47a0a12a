import { type JobLog, type PeriodicJob, startPeriodicJob } from '../housekeeping/periodic-job.ts';
import type { PgliteQueries } from './pglite-client.ts';

/** How often the embedded database's tables are vacuumed and analysed. */
export const EMBEDDED_VACUUM_INTERVAL_MS = 60 * 60 * 1000;

/** Every table of the database's own schemas (Keycard's and the migration journal's). */
const TABLES = `
  select quote_ident(schemaname) || '.' || quote_ident(tablename) as name
  from pg_tables
  where schemaname not in ('pg_catalog', 'information_schema')
  order by schemaname, tablename`;

/**
 * VACUUM (ANALYZE) of every table, one statement per table so that no single pause of the database's
 * thread is longer than one table's. PGlite runs PostgreSQL in single-user mode, where no autovacuum
 * runs: without this, the space of every deleted or updated row (interactions saved at each step,
 * sessions and tokens pruned when they expire, failure counts cleared by a sign-in) is never reused,
 * the data directory only grows, and the planner never learns the tables' sizes. Answers how many
 * tables it went through; once `signal` is aborted (the service stops) it starts no further table.
 */
export async function vacuumEmbedded(client: PgliteQueries, signal?: AbortSignal): Promise<number> {
  const { rows } = await client.query<{ name: string }>(TABLES);
  let done = 0;
  for (const { name } of rows) {
    if (signal?.aborted) break;
    await client.exec(`VACUUM (ANALYZE) ${name}`);
    done += 1;
  }
  return done;
}

/**
 * Runs vacuumEmbedded at start and then every `intervalMs` (PGlite only; PostgreSQL's own autovacuum
 * does this on a server). A pass logs nothing unless it fails: it deletes no rows.
 */
export function startEmbeddedVacuum(
  client: PgliteQueries,
  log: JobLog,
  intervalMs = EMBEDDED_VACUUM_INTERVAL_MS,
): PeriodicJob {
  const run = (signal: AbortSignal) => vacuumEmbedded(client, signal).then(() => 0);
  return startPeriodicJob({
    run,
    intervalMs,
    log,
    deleted: () => '',
    failed: 'embedded database: vacuum failed',
  });
}
