// First: tracing, when configured, starts before the modules it instruments are evaluated.
import './tracing/start-if-configured.ts';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type Rekeyed, rekeyAddresses } from './accounts/address-keys.ts';
import { startAdminSocket } from './admin/admin-socket.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { ensureDemoAccount } from './demo/demo-setup.ts';
import { loggableReport } from './errors/loggable-error.ts';
import { startHousekeeping } from './housekeeping-jobs.ts';
import { buildApp } from './http/app.ts';
import { acquireDataDirLock, DataDirLockedError } from './lock-file.ts';
import { developmentLogStream, productionLogStream } from './log-output.ts';
import { createMetrics } from './metrics/metrics.ts';
import { listenForScrapes, METRICS_PATH } from './metrics/metrics-listener.ts';
import { ClientCache } from './oidc/client-cache.ts';
import { followClientChangesIn } from './oidc/client-changes.ts';
import { followKeyChangesIn } from './oidc/key-changes.ts';
import { signingKeySettings } from './oidc/keys.ts';
import { provisioningMailing } from './provisioning/provisioning-mailing.ts';
import {
  drainService,
  handleShutdownSignals,
  type ServiceParts,
  StopRequested,
  stopService,
} from './shutdown.ts';
import { migrateDatabase } from './store/migrate.ts';
import { openDatabase, pgliteDirectory, reportLostConnections } from './store/open-database.ts';
import { PgliteThread, reportLostDatabase } from './store/pglite-thread-client.ts';
import { lowerPoolPriority } from './thread-priority.ts';

/**
 * Where a developer goes next, printed after start-up in development. An entry is shown only when
 * its route is served: the demo relying party when DEMO is on, the dev mailbox when it is on.
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

/**
 * Where start-up lines go: at info whatever LOG_LEVEL says, as tools wait for the listening line and
 * the demo account's password is shown only once.
 */
function startUpLog(app: FastifyInstance): FastifyBaseLogger {
  return app.log.child({}, { level: 'info' });
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
  const log = startUpLog(app);
  log.info(`Keycard listening on ${config.publicUrl}`);
  // Whose X-Forwarded-* it believes decides every client address it counts: say so where it is set.
  if (config.trustedProxies > 0) log.info(`Proxies trusted in front: ${config.trustedProxies} (TRUST_PROXY)`);
  // Its pages show live reset links: say that it is on, and why, wherever it is.
  if (config.devMailbox.on) log.info(`Dev mailbox on (${config.devMailbox.reason})`);
  if (config.production) return;
  for (const link of DEVELOPMENT_LINKS) {
    if (link.path === '/' || app.hasRoute({ method: 'GET', url: link.path })) {
      log.info(`${link.label}: ${config.publicUrl}${link.path}`);
    }
  }
}

/** Says what bringing the accounts' lookup keys up to date did (accounts/address-keys.ts), if anything. */
function reportRekeyedAddresses({ rekeyed, clashing }: Rekeyed, log: FastifyBaseLogger): void {
  if (rekeyed > 0) {
    log.info(`${rekeyed} accounts are now found by their address with its domain in IDNA ASCII form`);
  }
  if (clashing.length > 0) {
    log.warn(
      { accounts: clashing },
      `accounts ${clashing.join(', ')} share their address with another account that spells its ` +
        'domain the other way (Unicode or IDNA ASCII), and only the other one is found by it: remove ' +
        'one of each pair or change its address (admin CLI)',
    );
  }
}

/** METRICS_PORT: the metrics listener, closed with the app; its own port, for the scraper only. */
async function serveMetrics(app: FastifyInstance, config: Config): Promise<void> {
  if (config.metricsListener === undefined) return;
  const listener = await listenForScrapes(app.metrics, config.metricsListener);
  app.addHook('onClose', () => listener.close());
  const { address, port } = listener.address;
  const host = address.includes(':') ? `[${address}]` : address;
  app.log.info(`Metrics at http://${host}:${port}${METRICS_PATH}`);
}

async function main(): Promise<void> {
  const parts: ServiceParts = { housekeeping: [] };
  // First of all, so a signal during start-up also ends in a clean stop instead of the default exit.
  const signals = handleShutdownSignals({
    stop: async (drainMs) => {
      await drainService(parts, drainMs);
      await stopService(parts);
    },
    fail,
  });
  const config = readConfig();
  const poolPriority = await lowerPoolPriority();
  try {
    if (config.databaseUrl === undefined) parts.lock = acquireDataDirLock(config.dataDir);
    const database = await openDatabase(
      config.databaseUrl === undefined
        ? { pgliteDir: pgliteDirectory(config.dataDir) }
        : { databaseUrl: config.databaseUrl },
    );
    parts.database = database;
    signals.checkpoint();
    await migrateDatabase(database);
    signals.checkpoint();
    const productionLog = config.production ? productionLogStream() : undefined;
    // Client registrations are cached while their changes are heard (oidc/client-changes.ts): on
    // PostgreSQL from other processes too (instances, the admin CLI), on a connection of its own.
    const clientCache = new ClientCache();
    const app = await buildApp({
      config,
      db: database.db,
      logger: { level: config.logLevel, stream: productionLog ?? developmentLogStream() },
      metrics: createMetrics({ database, threadPoolSize: config.threadPoolSize }),
      clientCache,
    });
    parts.app = app;
    reportRekeyedAddresses(await rekeyAddresses(database.db), app.log);
    parts.clientChanges = await followClientChangesIn(database, clientCache, app.log);
    // A rotation or revocation by another process applies here at once (oidc/key-changes.ts), not up
    // to 30 s later; its listener closes with the app, before the database.
    const keyChanges = await followKeyChangesIn(database, app.keySchedule, app.log);
    if (keyChanges) app.addHook('onClose', () => keyChanges.close());
    parts.readiness = app.readiness;
    if (database.client instanceof PgliteThread) reportLostDatabase(database.client, app.log);
    if (database.kind === 'postgres') reportLostConnections(database.client, app.log);
    if (poolPriority.problem !== undefined) {
      app.log.warn(`argon2's threads run at the service's own priority: ${poolPriority.problem}`);
    }
    signals.checkpoint();
    await serveMetrics(app, config);
    // The embedded database admits one process: the admin CLI reaches it through this socket.
    if (database.kind === 'pglite') {
      const log = app.log;
      const mailService = app.mail;
      parts.adminSocket = await startAdminSocket({
        dataDir: config.dataDir,
        db: database.db,
        mailing: provisioningMailing(config, () => mailService.nudge()),
        signingKeys: signingKeySettings(config),
        configuredResources: config.resourceServers,
        passwordMinScore: config.passwordMinScore,
        onError: (message) => log.error(message),
      });
    }
    // Made before serving, so the account exists once the URL is printed and no signal can cut it off.
    const demoAccount = config.demo ? await ensureDemoAccount(database.db) : null;
    signals.checkpoint();
    await listen(app, config);
    // Mail queued before a restart (or by the admin CLI meanwhile) goes out now; app.close() stops it.
    app.mail.start();
    // Logout tokens queued by sign-outs before a restart go out now; app.close() stops the worker.
    app.logouts.start();
    parts.housekeeping = startHousekeeping(database, app.log);
    if (demoAccount) {
      startUpLog(app).info(
        `Demo account created: ${demoAccount.email} / password ${demoAccount.password} (shown only now)`,
      );
    }
    // Tools wait for the start-up lines: out now, not with the next batch.
    productionLog?.flush();
    signals.serving(config.shutdownDrainMs);
  } catch (error) {
    await stopService(parts).catch(() => undefined);
    if (error instanceof StopRequested) process.exit(0);
    if (error instanceof DataDirLockedError) fail(error.message);
    throw error;
  }
}

main().catch((error: unknown) => fail(`Keycard failed to start: ${loggableReport(error)}`));
