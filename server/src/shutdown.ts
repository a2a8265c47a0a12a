import type { FastifyInstance } from 'fastify';
import type { PeriodicJob } from './housekeeping/periodic-job.ts';
import type { DataDirLock } from './lock-file.ts';
import type { Database } from './store/database.ts';
import { stopTracing } from './tracing/spans.ts';

/** A stop must not hang forever: the lock, the port and a supervisor's patience are all waiting. */
export const SHUTDOWN_DEADLINE_MS = 10_000;

/** What a running service holds; main.ts fills it in as start-up gets further. */
export interface ServiceParts {
  housekeeping: readonly PeriodicJob[];
  /** The admin socket (admin/admin-socket.ts): stops accepting and lets commands in flight finish. */
  adminSocket?: { close(): Promise<void> } | undefined;
  app?: FastifyInstance | undefined;
  database?: Database | undefined;
  lock?: DataDirLock | undefined;
}

/**
 * Stops whatever of the service is running, each part after the work that needs it: no new
 * housekeeping passes; the HTTP server stops accepting, lets requests in flight finish and stops the
 * mail worker (its onClose hook waits for a send in progress); admin commands in flight finish; only
 * then does the database close, and the DATA_DIR lock goes last. The spans of all that are exported
 * before the process exits.
 */
export async function stopService(parts: ServiceParts): Promise<void> {
  for (const job of parts.housekeeping) job.stop();
  await Promise.all([parts.app?.close(), parts.adminSocket?.close()]);
  await Promise.all(parts.housekeeping.map((job) => job.idle()));
  await parts.database?.close();
  parts.lock?.release();
  await stopTracing();
}

/** Thrown at a start-up step after SIGINT/SIGTERM: start-up stops there and the service shuts down. */
export class StopRequested extends Error {
  constructor() {
    super('Keycard was asked to stop while starting.');
    this.name = 'StopRequested';
  }
}

export interface ShutdownSignals {
  /** Throws StopRequested once a signal came; main.ts calls it between start-up steps. */
  checkpoint(): void;
  /** Start-up is complete: a signal now stops the service at once, and one that came already does so now. */
  serving(): void;
}

export interface ShutdownSignalOptions {
  /** Stops the service; the process exits 0 when it resolves. */
  readonly stop: () => Promise<void>;
  /** Ends the process after a failed or overdue stop, with its reason. */
  readonly fail: (message: string) => never;
}

/**
 * SIGINT and SIGTERM stop the service cleanly and exit 0, also during start-up, where the step in
 * progress finishes first: closing the database under a running migration could damage it. Later
 * signals are ignored (a terminal's Ctrl-C reaches the process both directly and through npm).
 */
export function handleShutdownSignals({ stop, fail }: ShutdownSignalOptions): ShutdownSignals {
  let requested = false;
  let started = false;
  let stopping = false;
  const stopNow = () => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(0),
      (error: unknown) => fail(`Keycard failed to shut down cleanly: ${String(error)}`),
    );
  };
  const onSignal = () => {
    if (requested) return;
    requested = true;
    setTimeout(
      () => fail(`Keycard did not shut down within ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting.`),
      SHUTDOWN_DEADLINE_MS,
    ).unref();
    if (started) stopNow();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    checkpoint() {
      if (requested) throw new StopRequested();
    },
    serving() {
      started = true;
      if (requested) stopNow();
    },
  };
}

/**
 * Once the app is closing, each answer closes its connection. app.close() closes the kept-alive
 * connections that are idle at that moment, but one whose request was still in flight would
 * otherwise stay open after its answer, and the close would wait for the keep-alive timeout.
 */
export function closeConnectionsWhenClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
}
