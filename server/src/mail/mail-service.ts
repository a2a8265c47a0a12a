import type { Config } from '../config.ts';
import type { MailMeter } from '../metrics/meters.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { createOutbox, type Outbox } from './outbox.ts';
import { outboxCounts } from './outbox-repository.ts';
import { devMailboxTransport, type MailLog, type MailTransport, smtpTransport } from './transport.ts';
import { createMailWorker, type MailWorker, type WorkerTiming } from './worker.ts';

/**
 * What route modules get as `deps.mail` (RouteDeps): queue inside the transaction that issues the
 * code, then nudge once it has committed.
 *
 *   const { id } = await db.transaction(async (tx) => {
 *     const code = await issueCode(tx, …);
 *     return deps.mail.queue(tx, { kind: 'unlock', to, language, values: { userName, link } });
 *   });
 *   deps.mail.nudge();
 *
 * A nudge before the commit finds nothing yet; the worker's poll would still send the row later.
 */
export interface Mailer extends Outbox {
  /** Wakes the worker now instead of at its next poll; never waits for a send, never throws. */
  nudge(): void;
}

/** The outbox and its worker, built once per process from the config (http/app.ts). */
export interface MailService extends Mailer, Pick<MailWorker, 'start' | 'stop' | 'runOnce' | 'running'> {
  readonly transport: MailTransport['kind'];
}

export interface MailServiceOptions {
  readonly config: Pick<Config, 'publicUrl' | 'site' | 'smtpUrl' | 'mailFrom' | 'production'>;
  readonly db: Db;
  readonly log: MailLog;
  /** Replaces the transport the config selects (tests). */
  readonly transport?: MailTransport;
  readonly clock?: Clock;
  readonly timing?: Partial<WorkerTiming>;
  readonly random?: () => number;
  /** Counts deliveries and reads the outbox's size at each scrape (metrics); none unless given. */
  readonly meter?: MailMeter;
}

/** SMTP when SMTP_URL is set; otherwise the development mailbox, which production never uses. */
function transportFor(config: MailServiceOptions['config'], log: MailLog): MailTransport {
  if (config.smtpUrl !== undefined) {
    return smtpTransport({
      url: config.smtpUrl,
      from: config.mailFrom,
      messageIdDomain: new URL(config.publicUrl).hostname,
    });
  }
  // config.ts already refuses production without SMTP_URL; this keeps it true for any other caller.
  if (config.production) throw new Error('SMTP_URL is required in production');
  return devMailboxTransport(log);
}

/** Not started: main.ts starts the worker once the service listens; tests start one when they need it. */
export function createMailService(options: MailServiceOptions): MailService {
  const transport = options.transport ?? transportFor(options.config, options.log);
  const outbox = createOutbox(options.config);
  const worker = createMailWorker({
    db: options.db,
    transport,
    log: options.log,
    clock: options.clock,
    timing: options.timing,
    random: options.random,
    meter: options.meter,
  });
  options.meter?.readOutboxWith(() => outboxCounts(options.db));
  return {
    transport: transport.kind,
    queue: outbox.queue,
    nudge: worker.nudge,
    start: worker.start,
    stop: worker.stop,
    runOnce: worker.runOnce,
    running: worker.running,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's mail service (http/app.ts); main.ts starts its worker once the service listens. */
    readonly mail: MailService;
  }
}
