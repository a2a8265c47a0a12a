import { type MailMeter, UNMEASURED } from '../metrics/meters.ts';
import { type Clock, databaseClock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { detachedFromRequest, traced } from '../tracing/spans.ts';
import {
  type ClaimedMail,
  claimNextDue,
  failExpired,
  markSent,
  recordFailedAttempt,
  releaseClaim,
  removeExpiredLinks,
  withdrawDeadMail,
} from './outbox-repository.ts';
import {
  describeError,
  isPermanentRejection,
  MAX_ATTEMPTS,
  retryDelayMs,
  smtpCodes,
} from './retry-schedule.ts';
import type { MailLog, MailTransport } from './transport.ts';

/** How often and how long the worker looks and holds; defaults suit the service, tests shorten them. */
export interface WorkerTiming {
  /** Between passes when not nudged; also how soon mail queued by another process (the CLI) goes out. */
  readonly pollMs: number;
  /** A claim's lifetime: longer than any one send (SMTP_TIMEOUTS), so only a dead worker's claim lapses. */
  readonly leaseMs: number;
  /** How long stop() lets a send in progress finish before cancelling it. */
  readonly stopGraceMs: number;
}

export const WORKER_TIMING: WorkerTiming = { pollMs: 5_000, leaseMs: 5 * 60_000, stopGraceMs: 5_000 };

export interface MailWorkerOptions {
  readonly db: Db;
  readonly transport: MailTransport;
  readonly log: MailLog;
  /** Defaults to the database's clock, the one next_attempt_at and leases are compared with. */
  readonly clock?: Clock;
  readonly timing?: Partial<WorkerTiming>;
  /** Jitter source of the back-off, in [0, 1). */
  readonly random?: () => number;
  /** Counts messages sent, retried and given up (metrics); none counted unless given. */
  readonly meter?: MailMeter;
}

export interface MailWorker {
  /** Sends what is due now (mail left from before a restart included), then polls. */
  start(): void;
  /** Look at the outbox now instead of at the next poll; a no-op until started. */
  nudge(): void;
  /** One pass over everything due, whether or not started; resolves with how many messages were tried. */
  runOnce(): Promise<number>;
  /** Takes no further message and waits for a send in progress (cancelled after the grace time). */
  stop(): Promise<void>;
  /** Started and not stopped: it sends what is queued (GET /health/ready reports it). */
  running(): boolean;
}

/**
 * The delivery worker (DESIGN §2 Mail). It claims one due message at a time with a lease, sends it
 * outside any transaction and request, then marks it sent or schedules the next attempt. Several
 * instances may run on one database; rows persist, so a restart loses nothing.
 */
export function createMailWorker(options: MailWorkerOptions): MailWorker {
  const { db, transport, log } = options;
  const timing = { ...WORKER_TIMING, ...options.timing };
  const clock = options.clock ?? databaseClock(db);
  const meter = options.meter ?? UNMEASURED.mail;
  const cancel = new AbortController();
  let started = false;
  let stopping: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<number> | undefined;
  let again = false;
  let outboxReachable = true;

  async function recordFailure(mail: ClaimedMail, error: unknown): Promise<void> {
    const attempts = mail.attempts + 1;
    const message = describeError(error, transport.secrets);
    const now = await clock.now();
    // The server's reply often quotes the recipient's address: it is kept with the message (the
    // admin CLI's mail:failed shows it), and the log names the message and the reply's codes only.
    const details = { mailId: mail.id, attempts, ...smtpCodes(error) };
    if (attempts >= MAX_ATTEMPTS || isPermanentRejection(error)) {
      await recordFailedAttempt(db, mail.id, attempts, { failedAt: now, error: message });
      meter.failed(isPermanentRejection(error) ? 'rejected' : 'attempts');
      log.error(details, 'Mail delivery failed for good; see npm run admin -- mail:failed');
      return;
    }
    const retryAt = new Date(now.getTime() + retryDelayMs(attempts, options.random));
    await recordFailedAttempt(db, mail.id, attempts, { retryAt, error: message });
    meter.retried();
    log.warn({ ...details, retryAt: retryAt.toISOString() }, 'Mail delivery failed; will retry');
  }

  async function deliver(mail: ClaimedMail): Promise<void> {
    const outgoing = { id: mail.id, to: mail.recipient, subject: mail.subject, text: mail.textBody };
    try {
      await transport.send({ ...outgoing, html: mail.htmlBody }, cancel.signal);
    } catch (error) {
      // Cancelled by stop(): not the message's fault, so it is due again at once, uncounted.
      if (cancel.signal.aborted) await releaseClaim(db, mail.id);
      else await recordFailure(mail, error);
      return;
    }
    // Should this update fail, the claim lapses and the message is sent again: at least once, with
    // the same Message-ID, rather than lost. It removes the message's links (codes) from the outbox,
    // except in the development mailbox, whose rows are the delivered messages.
    await markSent(db, mail.id, await clock.now(), transport.kind === 'dev-mailbox');
    meter.sent();
  }

  async function drain(): Promise<number> {
    let tried = 0;
    try {
      // Before the expired are failed: a replaced link is not a failure, even once it has expired
      // (the person asked for a newer one, changed the address, or used this one).
      const withdrawn = await withdrawDeadMail(db, await clock.now());
      if (withdrawn > 0) {
        meter.withdrawn(withdrawn);
        log.info(`Mail withdrawn unsent, its link replaced or used: ${withdrawn} message(s)`);
      }
      const expired = await failExpired(db, await clock.now());
      if (expired > 0) {
        meter.failed('expired', expired);
        log.warn({ messages: expired }, 'Mail expired undelivered; its links no longer work');
      }
      await removeExpiredLinks(db, await clock.now());
      while (stopping === undefined) {
        const now = await clock.now();
        const mail = await claimNextDue(db, now, new Date(now.getTime() + timing.leaseMs));
        if (!mail) break;
        await traced('mail.deliver', { attributes: { 'keycard.mail.transport': transport.kind } }, () =>
          deliver(mail),
        );
        tried += 1;
      }
      if (!outboxReachable) log.info('Mail worker reaches the outbox again');
      outboxReachable = true;
    } catch (error) {
      // Once per outage, not once per poll.
      if (outboxReachable) log.warn({ error: describeError(error) }, 'Mail worker cannot use the outbox');
      outboxReachable = false;
    }
    return tried;
  }

  function afterPass(): void {
    pass = undefined;
    if (!started || stopping !== undefined) return;
    if (again) {
      again = false;
      kick();
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(kick, timing.pollMs);
    // The HTTP server keeps the service alive; the worker alone must not keep a process running.
    timer.unref();
  }

  function kick(): void {
    if (!started || stopping !== undefined) return;
    if (pass) {
      again = true;
      return;
    }
    clearTimeout(timer);
    // A nudge comes from a request; the pass it starts is not part of that request's trace.
    pass = detachedFromRequest(drain).finally(afterPass);
  }

  async function runOnce(): Promise<number> {
    while (pass) await pass;
    const current = drain().finally(afterPass);
    pass = current;
    return current;
  }

  async function shutDown(): Promise<void> {
    clearTimeout(timer);
    const grace = setTimeout(() => cancel.abort(), timing.stopGraceMs);
    try {
      while (pass) await pass;
    } finally {
      clearTimeout(grace);
      transport.close();
    }
  }

  return {
    start() {
      started = true;
      kick();
    },
    nudge: kick,
    runOnce,
    stop() {
      stopping ??= shutDown();
      return stopping;
    },
    running: () => started && stopping === undefined,
  };
}
