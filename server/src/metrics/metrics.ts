import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../store/database.ts';
import { hashSlots } from './hash-slots.ts';
import {
  type HashMeter,
  type HttpMeter,
  MAIL_FAILURE_REASONS,
  type MailMeter,
  type OutboxState,
  SIGN_IN_OUTCOMES,
  type SignInMeter,
} from './meters.ts';
import { processRegistry } from './process-metrics.ts';

/**
 * The service's Prometheus metrics: one registry per app (tests build many apps in one process, so
 * prom-client's global registry is never used), the meters the app hands to the code it measures,
 * and the scrape, which adds the process's own metrics (process-metrics.ts). The README's Metrics
 * section says what each family means.
 */
export interface Metrics {
  readonly http: HttpMeter;
  readonly signIns: SignInMeter;
  readonly hashes: HashMeter;
  readonly mail: MailMeter;
  /** The Prometheus text exposition of this app's families and the process's. */
  scrape(): Promise<string>;
  /** The content type of `scrape()`'s text. */
  readonly contentType: string;
}

export interface MetricsOptions {
  /** The open database, whose connection pool is reported; none reported without it. */
  readonly database?: Database;
  /** Threads of libuv's pool (UV_THREADPOOL_SIZE), which argon2 runs on; Node's default is 4. */
  readonly threadPoolSize?: number;
}

/** Seconds; from a fast API answer to a slow page or a sign-in queued behind argon2. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds; one verification costs about 10 ms of a core (BENCHMARKS.md). */
const HASH_BUCKETS = [0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1];
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

function httpMeter(registers: Registry[]): HttpMeter {
  const durations = new Histogram({
    name: 'keycard_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, and how long each took to answer; _count counts them.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  return { answered: (request, seconds) => durations.observe({ ...request }, seconds) };
}

function signInMeter(registers: Registry[]): SignInMeter {
  const signIns = new Counter({
    name: 'keycard_sign_ins_total',
    help: 'Sign-ins by outcome: success, wrong, locked, expired (password), federated.',
    labelNames: ['outcome'] as const,
    registers,
  });
  for (const outcome of SIGN_IN_OUTCOMES) signIns.inc({ outcome }, 0);
  const lockouts = new Counter({
    name: 'keycard_lockouts_total',
    help: 'Identifiers locked by a failed sign-in attempt (LOCKOUT_THRESHOLD reached).',
    registers,
  });
  return { signedIn: (outcome) => signIns.inc({ outcome }), lockedOut: () => lockouts.inc() };
}

function hashMeter(registers: Registry[], threads: number) {
  const runs = new Histogram({
    name: 'keycard_argon2_verification_seconds',
    help: 'argon2 verifications of sign-ins, and how long each ran on its thread; _count counts them.',
    buckets: HASH_BUCKETS,
    registers,
  });
  const waits = new Histogram({
    name: 'keycard_argon2_queue_wait_seconds',
    help: "How long an argon2 verification waited for a thread of libuv's pool (UV_THREADPOOL_SIZE).",
    buckets: WAIT_BUCKETS,
    registers,
  });
  const slots = hashSlots({
    threads,
    observe(waitSeconds, runSeconds) {
      waits.observe(waitSeconds);
      runs.observe(runSeconds);
    },
  });
  new Gauge({
    name: 'keycard_argon2_queue_length',
    help: 'argon2 verifications waiting for a thread at the time of the scrape.',
    registers,
    collect() {
      this.set(slots.waiting());
    },
  });
  return slots;
}

function mailMeter(registers: Registry[]): MailMeter {
  let readOutbox: (() => Promise<OutboxState>) | undefined;
  const sent = new Counter({ name: 'keycard_mail_sent_total', help: 'Messages delivered.', registers });
  const retried = new Counter({
    name: 'keycard_mail_retries_total',
    help: 'Delivery attempts that failed and were scheduled again.',
    registers,
  });
  const failed = new Counter({
    name: 'keycard_mail_failed_total',
    help: 'Messages given up, by reason: rejected (SMTP 5xx), attempts (retries exhausted), expired (link).',
    labelNames: ['reason'] as const,
    registers,
  });
  for (const reason of MAIL_FAILURE_REASONS) failed.inc({ reason }, 0);
  const withdrawn = new Counter({
    name: 'keycard_mail_withdrawn_total',
    help: 'Unsent messages withdrawn because their link was replaced or used first.',
    registers,
  });
  // One outbox query per scrape sets both gauges. While the database cannot be read they show NaN:
  // unknown, rather than the last figure or a false 0.
  let reading: Promise<OutboxState | undefined> | undefined;
  const outboxNow = () => {
    reading ??= (readOutbox?.() ?? Promise.resolve(undefined))
      .catch(() => undefined)
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  new Gauge({
    name: 'keycard_mail_outbox_messages',
    help: 'Messages in the outbox (shared by all instances): pending (to be tried) and failed (given up).',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      const state = await outboxNow();
      this.set({ state: 'pending' }, state?.pending ?? Number.NaN);
      this.set({ state: 'failed' }, state?.failed ?? Number.NaN);
    },
  });
  new Gauge({
    name: 'keycard_mail_outbox_oldest_pending_seconds',
    help: 'Age of the oldest pending message (shared by all instances); 0 when none is pending.',
    registers,
    async collect() {
      this.set((await outboxNow())?.oldestPendingSeconds ?? Number.NaN);
    },
  });
  return {
    sent: () => sent.inc(),
    retried: () => retried.inc(),
    failed: (reason, count = 1) => failed.inc({ reason }, count),
    withdrawn: (count) => withdrawn.inc(count),
    readOutboxWith(read) {
      readOutbox = read;
    },
  };
}

/**
 * The database's connections. PostgreSQL: the pool's busy and idle connections and the queries
 * waiting for one (a pool that is always full shows here first). The embedded PGlite is one
 * connection that runs one statement at a time: only that size is reported.
 */
function databaseGauges(registers: Registry[], database: Database): void {
  new Gauge({
    name: 'keycard_db_pool_max_connections',
    help: 'Connections the database pool may open (PGlite: its one embedded connection).',
    registers,
    collect() {
      this.set(database.kind === 'postgres' ? (database.client.options.max ?? 10) : 1);
    },
  });
  if (database.kind !== 'postgres') return;
  const pool = database.client;
  new Gauge({
    name: 'keycard_db_pool_connections',
    help: 'Open PostgreSQL connections of the pool: busy (running a query or transaction) or idle.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set({ state: 'busy' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
    },
  });
  new Gauge({
    name: 'keycard_db_pool_waiting_queries',
    help: 'Queries waiting for a free connection of the PostgreSQL pool.',
    registers,
    collect() {
      this.set(pool.waitingCount);
    },
  });
}

/** A fresh registry with every family of the app; see Metrics. */
export function createMetrics({ database, threadPoolSize = 4 }: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  if (database) databaseGauges(registers, database);
  return {
    http: httpMeter(registers),
    signIns: signInMeter(registers),
    hashes: hashMeter(registers, threadPoolSize),
    mail: mailMeter(registers),
    scrape: () => Registry.merge([processRegistry(), registry]).metrics(),
    contentType: registry.contentType,
  };
}
