import type { FastifyInstance } from 'fastify';
import { adminMailing } from './admin/admin-mailing.ts';
import { type AdminSocket, startAdminSocket } from './admin/admin-socket.ts';
import { startAuditRetention } from './audit/retention.ts';
import { databaseClock } from './clock.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { ensureDemoAccount } from './demo/demo-setup.ts';
import type { PeriodicJob } from './housekeeping/periodic-job.ts';
import { buildApp } from './http/app.ts';
import { acquireDataDirLock, type DataDirLock, DataDirLockedError } from './lock-file.ts';
import { developmentLogStream } from './log-output.ts';
import { startMailRetention } from './mail/mail-retention.ts';
import { startExpiredStatePruning } from './oidc/expired-state.ts';
import type { Database } from './store/database.ts';
import { migrateDatabase } from './store/migrate.ts';
import { openDatabase, pgliteDirectory } from './store/open-database.ts';

/**
 * Where a developer goes next, printed after start-up in development. An entry is shown only once
 * its route exists, so the demo relying party and dev mailbox appear when their issues add them.
 */
const DEVELOPMENT_LINKS: readonly { readonly path: string; readonly label: string }[] = [
  { path: '/', label: 'Open the Keycard app' },
  { path: '/demo', label: 'Sign in through the demo relying party' },
  { path: '/dev/mail', label: 'Read outgoing mail in the dev mailbox' },
];

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

/** Fastify logs one line per listening address; the public URL is the one that matters, once. */
async function listen(app: FastifyInstance, config: Config): Promise<void> {
  const level = app.log.level;
  app.log.level = 'warn';
  try {
    await app.listen({ port: config.port, host: config.host });
  } finally {
    app.log.level = level;
  }
  app.log.info(`Keycard listening on ${config.publicUrl}`);
  if (config.production) return;
  for (const link of DEVELOPMENT_LINKS) {
    if (link.path === '/' || app.hasRoute({ method: 'GET', url: link.path })) {
      app.log.info(`${link.label}: ${config.publicUrl}${link.path}`);
    }
  }
}

/** The terminal and npm both deliver Ctrl-C; the first signal shuts down, later ones are ignored. */
function onShutdownSignal(shutdown: () => Promise<void>): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // A hung close must not keep the lock and the port forever.
    setTimeout(() => fail('Keycard did not shut down within 10 s; exiting.'), 10_000).unref();
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => fail(`Keycard failed to shut down cleanly: ${String(error)}`),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main(): Promise<void> {
  const config = readConfig();
  let lock: DataDirLock | undefined;
  let database: Database | undefined;
  let app: FastifyInstance | undefined;
  let adminSocket: AdminSocket | undefined;
  let housekeeping: PeriodicJob[] = [];
  const shutdown = async () => {
    for (const job of housekeeping) job.stop();
    // First: admin commands in flight finish before the database closes.
    await adminSocket?.close();
    await app?.close();
    await database?.close();
    lock?.release();
  };
  try {
    if (config.databaseUrl === undefined) lock = acquireDataDirLock(config.dataDir);
    database = await openDatabase(
      config.databaseUrl === undefined
        ? { pgliteDir: pgliteDirectory(config.dataDir) }
        : { databaseUrl: config.databaseUrl },
    );
    await migrateDatabase(database);
    app = await buildApp({
      config,
      db: database.db,
      logger: config.production ? { level: 'info' } : { level: 'info', stream: developmentLogStream() },
    });
    // The embedded database admits one process: the admin CLI reaches it through this socket.
    if (database.kind === 'pglite') {
      const log = app.log;
      const mailService = app.mail;
      adminSocket = await startAdminSocket({
        dataDir: config.dataDir,
        db: database.db,
        mailing: adminMailing(config, () => mailService.nudge()),
        onError: (message) => log.error(message),
      });
    }
    // Made before serving, so the account exists once the URL is printed and no signal can cut it off.
    const demoAccount = config.demo ? await ensureDemoAccount(database.db) : null;
    onShutdownSignal(shutdown);
    await listen(app, config);
    // Mail queued before a restart (or by the admin CLI meanwhile) goes out now; app.close() stops it.
    app.mail.start();
    const clock = databaseClock(database.db);
    housekeeping = [
      startAuditRetention({ db: database.db, clock, log: app.log }),
      startExpiredStatePruning({ db: database.db, log: app.log }),
      startMailRetention({ db: database.db, clock, log: app.log }),
    ];
    if (demoAccount) {
      app.log.info(
        `Demo account created: ${demoAccount.email} / password ${demoAccount.password} (shown only now)`,
      );
    }
  } catch (error) {
    await shutdown().catch(() => undefined);
    if (error instanceof DataDirLockedError) fail(error.message);
    throw error;
  }
}

main().catch((error: unknown) =>
  fail(`Keycard failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
);
