import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { loggableMessage } from './errors/loggable-error.ts';
import type { PeriodicJob } from './housekeeping/periodic-job.ts';
import type { DataDirLock } from './lock-file.ts';
import type { Database } from './store/database.ts';
import { stopTracing } from './tracing/spans.ts';

/**
 * A stop must not hang forever: the lock, the port and a supervisor's patience are all waiting. It
 * counts from the end of the drain (SHUTDOWN_DRAIN_MS), so a supervisor waits for both.
 */
export const SHUTDOWN_DEADLINE_MS = 10_000;

/** What a running service holds; main.ts fills it in as start-up gets further. */
export interface ServiceParts {
  housekeeping: readonly PeriodicJob[];
  /** The admin socket (admin/admin-socket.ts): stops accepting and lets commands in flight finish. */
  adminSocket?: { close(): Promise<void> } | undefined;
  app?: FastifyInstance | undefined;
  /** Tells load balancers to stop sending (http/readiness.ts: GET /health/ready answers 503). */
  readiness?: { drain(): void } | undefined;
  database?: Database | undefined;
  /** The listener for client changes on PostgreSQL (oidc/client-changes.ts): its own connection. */
  clientChanges?: { close(): Promise<void> } | undefined;
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
  await parts.clientChanges?.close();
  await parts.database?.close();
  parts.lock?.release();
  await stopTracing();
}

/**
 * The first step of a stop once the service serves: GET /health/ready answers 503, and every answer
 * closes its connection, while every request is still served for `drainMs`, the time a load balancer
 * needs to see failed probes and send elsewhere; only then does stopService stop accepting.
 */
export async function drainService(parts: ServiceParts, drainMs: number): Promise<void> {
  parts.readiness?.drain();
  if (drainMs === 0 || parts.readiness === undefined) return;
  parts.app?.log.info(`Stopping: GET /health/ready answers 503 for ${drainMs} ms, then the service closes`);
  await sleep(drainMs);
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
  /**
   * Start-up is complete: a signal now stops the service after draining for `drainMs`; one that came
   * during start-up stops it now, without draining (no load balancer was told it is ready).
   */
  serving(drainMs?: number): void;
}

export interface ShutdownSignalOptions {
  /** Drains for `drainMs`, then stops the service; the process exits 0 when it resolves. */
  readonly stop: (drainMs: number) => Promise<void>;
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
  let servingDrainMs = 0;
  const stopNow = (drainMs: number) => {
    if (stopping) return;
    stopping = true;
    stop(drainMs).then(
      () => process.exit(0),
      (error: unknown) => fail(`Keycard failed to shut down cleanly: ${loggableMessage(error)}`),
    );
  };
  const onSignal = () => {
    if (requested) return;
    requested = true;
    const deadlineMs = (started ? servingDrainMs : 0) + SHUTDOWN_DEADLINE_MS;
    setTimeout(
      () => fail(`Keycard did not shut down within ${deadlineMs / 1000} s; exiting.`),
      deadlineMs,
    ).unref();
    if (started) stopNow(servingDrainMs);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    checkpoint() {
      if (requested) throw new StopRequested();
    },
    serving(drainMs = 0) {
      started = true;
      servingDrainMs = drainMs;
      if (requested) stopNow(0);
    },
  };
}

/**
 * Once the app is closing, each answer closes its connection. app.close() closes the kept-alive
 * connections that are idle at that moment, but one whose request was still in flight would
 * otherwise stay open after its answer, and the close would wait for the keep-alive timeout. Set on
 * the raw response, so the provider's own (hijacked) answers close theirs too.
 */
export function closeConnectionsWhenClosing(app: FastifyInstance): void {
  const inFlight = new Set<ServerResponse>();
  app.addHook('onRequest', (_request, reply, done) => {
    // Answers that ended are dropped here rather than by a 'close' listener of their own: the
    // provider's middleware already puts ten of those on a response, Node's warning limit.
    for (const response of inFlight)
      if (response.writableEnded || response.destroyed) inFlight.delete(response);
    inFlight.add(reply.raw);
    done();
  });
  app.addHook('preClose', async () => {
    for (const response of inFlight) if (!response.headersSent) response.setHeader('connection', 'close');
  });
}
