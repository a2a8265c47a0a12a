import { setTimeout as sleep } from 'node:timers/promises';
import { rekeyAddresses } from '../accounts/address-keys.ts';
import type { Config } from '../config.ts';
import { acquireDataDirLock, DataDirLockedError, type LockOptions } from '../lock-file.ts';
import { signingKeySettings } from '../oidc/keys.ts';
import { cliUserAgent } from '../provisioning/provisioning-deps.ts';
import { provisioningMailing } from '../provisioning/provisioning-mailing.ts';
import type { Database } from '../store/database.ts';
import { migrateDatabase } from '../store/migrate.ts';
import { openDatabase, pgliteDirectory } from '../store/open-database.ts';
import { type AdminRequest, runAdminRequest } from './admin-commands.ts';
import { sendAdminRequest, UNREACHABLE } from './socket-client.ts';
import { type AdminResponse, adminSocketPath, thisProcess } from './socket-protocol.ts';

/** Where a command ran: on a database this process opened, or inside the running service. */
export type ExecutedVia = 'database' | 'service';

export interface Execution {
  readonly via: ExecutedVia;
  readonly response: AdminResponse;
}

export interface ExecuteOptions {
  /**
   * How long to wait for a data directory held by a process that does not answer on the admin
   * socket yet (a service still migrating, another admin command): then the CLI gives up.
   */
  readonly waitMs?: number;
  readonly pollMs?: number;
  /** Told once when the CLI starts waiting, so a person knows why nothing happens. */
  readonly onWait?: (holderPid: number | undefined) => void;
  readonly lock?: LockOptions;
}

/** Refused before anything ran: the data directory stayed busy and nobody took the command. */
export class DataDirBusyError extends Error {}

/**
 * Runs one command where the database is (DESIGN §5). With DATABASE_URL the CLI connects like any
 * instance. On the embedded default it never opens PGlite beside another process: it either takes
 * the DATA_DIR lock (so a service starting meanwhile refuses) or hands the command to the service
 * that holds it, over the admin socket.
 */
export async function executeAdminRequest(
  config: Config,
  request: AdminRequest,
  options: ExecuteOptions = {},
): Promise<Execution> {
  if (config.databaseUrl !== undefined) {
    return { via: 'database', response: await runOn({ databaseUrl: config.databaseUrl }, config, request) };
  }
  return executeEmbedded(config, request, options);
}

async function executeEmbedded(
  config: Config,
  request: AdminRequest,
  options: ExecuteOptions,
): Promise<Execution> {
  const { waitMs = 30_000, pollMs = 250, onWait, lock: lockOptions } = options;
  const { dataDir } = config;
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    let holder: number | undefined;
    try {
      const lock = acquireDataDirLock(dataDir, lockOptions);
      try {
        return {
          via: 'database',
          response: await runOn({ pgliteDir: pgliteDirectory(dataDir) }, config, request),
        };
      } finally {
        lock.release();
      }
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      holder = error.pid;
    }
    const response = await sendAdminRequest(adminSocketPath(dataDir), request);
    if (response !== UNREACHABLE) return { via: 'service', response };
    if (Date.now() >= deadline) throw new DataDirBusyError(busyMessage(dataDir, holder));
    if (!told) onWait?.(holder);
    told = true;
    await sleep(pollMs);
  }
}

function busyMessage(dataDir: string, holder: number | undefined): string {
  const who = holder === undefined ? 'another process' : `process ${holder}`;
  return (
    `the data directory ${dataDir} is in use by ${who}, which does not take admin commands ` +
    '(another admin command, or a Keycard without the admin socket); nothing was changed, try again'
  );
}

async function runOn(
  location: { databaseUrl: string } | { pgliteDir: string },
  config: Config,
  request: AdminRequest,
): Promise<AdminResponse> {
  const database: Database = await openDatabase(location);
  try {
    await migrateDatabase(database);
    // Commands look accounts up by the keys of this code (accounts/address-keys.ts).
    await rekeyAddresses(database.db);
    // No worker here: the service's worker sends what this queues at its next poll or start.
    const origin = { address: 'local process', userAgent: cliUserAgent(thisProcess()) };
    return await runAdminRequest(
      {
        db: database.db,
        mailing: provisioningMailing(config),
        // This process's OIDC_KEY_GRACE_MINUTES and OIDC_KEY_RETAIN_MINUTES, not the instances': a
        // rotation run here takes them (OPERATIONS.md asks for the instances' values).
        signingKeys: signingKeySettings(config),
        configuredResources: config.resourceServers,
        origin,
        passwordMinScore: config.passwordMinScore,
      },
      request,
    );
  } finally {
    await database.close();
  }
}
