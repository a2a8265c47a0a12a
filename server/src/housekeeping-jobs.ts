import { startAuditRetention } from './audit/retention.ts';
import type { JobLog, PeriodicJob } from './housekeeping/periodic-job.ts';
import { startMailRetention } from './mail/mail-retention.ts';
import { startExpiredStatePruning } from './oidc/expired-state.ts';
import { startRecoveryStateRetention } from './recovery/state-retention.ts';
import { databaseClock } from './store/clock.ts';
import type { Database } from './store/database.ts';
import { startEmbeddedVacuum } from './store/embedded-vacuum.ts';

/**
 * The periodic clean-ups of a started service, each run once now and then at its interval: the
 * audit log's and the mail's 4 weeks, protocol state whose time is up, failure counts and codes past
 * the retention, and on the embedded store the vacuum PGlite does not run by itself. stopService
 * stops them and waits for their passes (shutdown.ts).
 */
export function startHousekeeping(database: Database, log: JobLog): PeriodicJob[] {
  const { db } = database;
  const clock = databaseClock(db);
  return [
    startAuditRetention({ db, clock, log }),
    startExpiredStatePruning({ db, log }),
    startMailRetention({ db, clock, log }),
    startRecoveryStateRetention({ db, clock, log }),
    // PGlite runs no autovacuum; a PostgreSQL server vacuums its own tables.
    ...(database.kind === 'pglite' ? [startEmbeddedVacuum(database.client, log)] : []),
  ];
}
