import type { Db } from '../store/database.ts';
import { migrationsApplied, pingDatabase } from '../store/readiness-queries.ts';
import { isDatabaseTimeout, isDatabaseUnavailable } from '../store/unavailable.ts';

/**
 * How long GET /health/ready waits for a check before counting it failed: under the one second a
 * Kubernetes probe waits by default, so a database that does not answer makes the instance unready
 * instead of making the probe time out (or pile up).
 */
export const CHECK_TIMEOUT_MS = 800;

/** The checks, in the order the answer names them. */
export const CHECK_NAMES = ['database', 'migrations', 'mailWorker'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/**
 * Why a check failed, in words that reveal nothing about the deployment (the answer needs no
 * credentials): the cause itself goes to the log.
 */
export type FailReason = 'unreachable' | 'timed_out' | 'failed' | 'behind' | 'stopped';

export type CheckResult =
  | { readonly status: 'pass' }
  | { readonly status: 'fail'; readonly reason: FailReason };

export interface ReadinessReport {
  /** pass: take traffic; fail: a check failed; draining: the service is about to stop. */
  readonly status: 'pass' | 'fail' | 'draining';
  readonly checks: Readonly<Record<CheckName, CheckResult>>;
}

/** What a check found, with the error behind a failure for the log. */
interface Outcome {
  readonly result: CheckResult;
  readonly error?: unknown;
}

export interface Readiness {
  /** Runs every check, each bounded by the timeout. */
  check(): Promise<ReadinessReport>;
  /** From now on the report says draining, whatever the checks find (shutdown.ts drainService). */
  drain(): void;
  readonly draining: boolean;
}

export interface ReadinessLog {
  info(message: string): void;
  warn(fields: object, message: string): void;
}

export interface ReadinessOptions {
  readonly db: Db;
  /** Whether the mail worker sends what is queued (MailService.running). */
  readonly mailWorkerRunning: () => boolean;
  readonly log: ReadinessLog;
  readonly timeoutMs?: number;
}

const PASS: Outcome = { result: { status: 'pass' } };

function failure(reason: FailReason, error?: unknown): Outcome {
  return { result: { status: 'fail', reason }, error };
}

function failureOf(error: unknown): Outcome {
  // A statement stopped by its time bound (a lock held too long) comes from a database that answers.
  if (isDatabaseTimeout(error)) return failure('timed_out', error);
  return failure(isDatabaseUnavailable(error) ? 'unreachable' : 'failed', error);
}

/**
 * A database check a probe waits for at most `timeoutMs`. While its query is still running (a
 * database that accepts but does not answer), later probes wait for that one instead of sending
 * another: the pool gets one readiness query at a time, however often the load balancer asks.
 */
function bounded(run: () => Promise<Outcome>, timeoutMs: number): () => Promise<Outcome> {
  let running: Promise<Outcome> | undefined;
  return async () => {
    running ??= run()
      .catch(failureOf)
      .finally(() => {
        running = undefined;
      });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<Outcome>((resolve) => {
      timer = setTimeout(
        () => resolve(failure('timed_out', new Error(`no answer within ${timeoutMs} ms`))),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([running, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The errors of the failed checks, as the log line about the change shows them. */
function causes(outcomes: Readonly<Record<CheckName, Outcome>>): Record<string, string> {
  const entries = CHECK_NAMES.flatMap((name) => {
    const { result, error } = outcomes[name];
    if (result.status === 'pass') return [];
    return [[name, error instanceof Error ? `${result.reason}: ${error.message}` : result.reason] as const];
  });
  return Object.fromEntries(entries);
}

/**
 * Whether this instance should get traffic (GET /health/ready): its database answers, it has every
 * migration of its build, and its mail worker runs. SMTP is not asked: mail waits in the outbox
 * while it is down, and the instance serves everything else. A change of the answer is logged once
 * (a failure with its causes as a warning), not on every probe.
 */
export function createReadiness(options: ReadinessOptions): Readiness {
  const { db, log } = options;
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  const database = bounded(async () => {
    await pingDatabase(db);
    return PASS;
  }, timeoutMs);
  const migrations = bounded(
    async () => ((await migrationsApplied(db)) ? PASS : failure('behind')),
    timeoutMs,
  );
  let draining = false;
  let lastStatus: ReadinessReport['status'] | undefined;

  const noteChange = (status: ReadinessReport['status'], outcomes: Readonly<Record<CheckName, Outcome>>) => {
    const previous = lastStatus;
    lastStatus = status;
    if (status === previous || status === 'draining') return;
    if (status === 'fail') log.warn({ checks: causes(outcomes) }, 'Not ready: GET /health/ready answers 503');
    else if (previous !== undefined) log.info('Ready again: GET /health/ready answers 200');
  };

  return {
    async check() {
      const [databaseOutcome, migrationsOutcome] = await Promise.all([database(), migrations()]);
      const outcomes: Record<CheckName, Outcome> = {
        database: databaseOutcome,
        migrations: migrationsOutcome,
        mailWorker: options.mailWorkerRunning() ? PASS : failure('stopped'),
      };
      const passed = CHECK_NAMES.every((name) => outcomes[name].result.status === 'pass');
      const status = draining ? 'draining' : passed ? 'pass' : 'fail';
      noteChange(status, outcomes);
      const checks = {
        database: outcomes.database.result,
        migrations: outcomes.migrations.result,
        mailWorker: outcomes.mailWorker.result,
      };
      return { status, checks };
    },
    drain() {
      draining = true;
    },
    get draining() {
      return draining;
    },
  };
}
