import { LOG_RETENTION_DAYS } from '@keycard/contract';
import { loggableMessage } from '../errors/loggable-error.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Rows that finished before this are past the data policy's 4 weeks (LOG_RETENTION_DAYS). */
export function retentionCutoff(now: Date): Date {
  return new Date(now.getTime() - LOG_RETENTION_DAYS * DAY_MS);
}

/** Where a periodic job reports what it did and what failed. */
export interface JobLog {
  error(message: string): void;
  info(message: string): void;
}

export interface PeriodicJob {
  /** One pass now; answers how many rows went. After stop() it is told to stop too, and does nothing. */
  runOnce(): Promise<number>;
  /** No further passes; one in flight ends after the statement it is running (see idle). */
  stop(): void;
  /** Resolves once no pass is running (a scheduled one or runOnce's), so shutdown can close the database after it. */
  idle(): Promise<void>;
}

export interface PeriodicJobOptions {
  /**
   * One pass; answers how many rows it deleted. `signal` is aborted when the job stops: a pass of many
   * statements starts no further one (store/batched-delete.ts), so a stop need not wait for a backlog.
   */
  readonly run: (signal: AbortSignal) => Promise<number>;
  readonly intervalMs: number;
  readonly log: JobLog;
  /** The log line of a pass that deleted rows. */
  readonly deleted: (count: number) => string;
  /** The log line's start when a pass fails. */
  readonly failed: string;
}

/**
 * Runs `run` once at start and then every `intervalMs`; a failed pass is logged and the next one tries
 * again. The timer never keeps the process alive.
 */
export function startPeriodicJob(options: PeriodicJobOptions): PeriodicJob {
  const { run, intervalMs, log } = options;
  const inFlight = new Set<Promise<unknown>>();
  const stopping = new AbortController();
  /** `running`, counted among the passes a stop waits for (idle) until it settles. */
  const tracked = <T>(running: Promise<T>): Promise<T> => {
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(settled);
    // Stryker disable next-line all: only for memory; idle() answers the same for a pass that settled
    void settled.then(() => inFlight.delete(settled));
    return running;
  };
  const pass = () => {
    void tracked(
      run(stopping.signal).then(
        (count) => {
          if (count > 0) log.info(options.deleted(count));
        },
        (error: unknown) => log.error(`${options.failed}: ${loggableMessage(error)}`),
      ),
    );
  };
  pass();
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  return {
    runOnce: () => tracked(run(stopping.signal)),
    stop: () => {
      clearInterval(timer);
      stopping.abort();
    },
    idle: async () => {
      await Promise.all([...inFlight]);
    },
  };
}
