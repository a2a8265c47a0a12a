import { DEMO_ACCOUNT_LINE } from './accounts.ts';
import { createScratchDatabase, type ScratchDatabase } from './database.ts';
import {
  BASE_URL_ENV,
  DATA_DIR_ENV,
  DATABASE_URL_ENV,
  DEMO_EMAIL_ENV,
  DEMO_PASSWORD_ENV,
  MAIL_DIR,
  MAIL_DIR_ENV,
} from './paths.ts';
import { type RunningService, startService } from './service.ts';
import { clearLoopbackCounters } from './shared-counters.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';

/** The demo account line follows the listening line at once; this only covers a slow log flush. */
const DEMO_LINE_TIMEOUT_MS = 15_000;

/**
 * Starts the real built service once for the whole run: a fresh PGlite data directory, or, when
 * DATABASE_URL is set, a fresh database on that PostgreSQL server; with REDIS_URL, fresh per-IP
 * recovery counters in that Redis. Its mail goes over SMTP to a sink started first, which files every
 * message for the journeys to read (support/mailbox.ts). Workers start after this and inherit,
 * through the environment, the origin, where the database is (for the admin CLI), where the mail is
 * filed and the demo account the service printed at its first start. The returned function is the
 * global teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const serverUrl = process.env.DATABASE_URL;
  const database: ScratchDatabase | undefined = serverUrl
    ? await createScratchDatabase(serverUrl)
    : undefined;
  let sink: SmtpSink | undefined;
  let service: RunningService | undefined;
  const teardown = async () => {
    await service?.stop();
    await sink?.close();
    await database?.drop();
  };
  try {
    const redisUrl = process.env.REDIS_URL;
    if (redisUrl) await clearLoopbackCounters(redisUrl);
    sink = await startSmtpSink(MAIL_DIR);
    process.env[MAIL_DIR_ENV] = MAIL_DIR;
    service = await startService({ databaseUrl: database?.url, smtpUrl: sink.url });
    const [, demoEmail = '', demoPassword = ''] = await service.waitForOutput(
      DEMO_ACCOUNT_LINE,
      DEMO_LINE_TIMEOUT_MS,
    );
    process.env[BASE_URL_ENV] = service.baseURL;
    process.env[DATA_DIR_ENV] = service.dataDir;
    if (service.databaseUrl) process.env[DATABASE_URL_ENV] = service.databaseUrl;
    process.env[DEMO_EMAIL_ENV] = demoEmail;
    process.env[DEMO_PASSWORD_ENV] = demoPassword;
    return teardown;
  } catch (error) {
    await teardown();
    throw error;
  }
}
