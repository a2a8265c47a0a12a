import { eq } from 'drizzle-orm';
import { afterEach, beforeEach } from 'vitest';
import type { MailRequest } from '../src/mail/mail-kinds.ts';
import { createMailService, type MailService } from '../src/mail/mail-service.ts';
import type { MailLog } from '../src/mail/transport.ts';
import type { MailMeter } from '../src/metrics/meters.ts';
import { type Clock, clockReading } from '../src/store/clock.ts';
import type { Database, Db } from '../src/store/database.ts';
import { outbox } from '../src/store/tables/mail.ts';
import { type SmtpSink, type SmtpSinkOptions, startSmtpSink } from './mail-sink.ts';
import { testConfig } from './support/app.ts';

/** The public origin of the mail tests; every link must start with it. */
export const PUBLIC_URL = 'https://login.example.test';

/** A log that keeps its lines, so a test can read what the worker or dev mailbox reported. */
export function recordingLog(): MailLog & { readonly lines: string[] } {
  const lines: string[] = [];
  const write = (details: Record<string, unknown> | string, message?: string) => {
    lines.push(typeof details === 'string' ? details : `${message} ${JSON.stringify(details)}`);
  };
  return { lines, info: write, warn: write, error: write };
}

/**
 * Real time plus an offset a test moves forward, so "30 s later" needs no sleeping while rows
 * written with the database's now() stay comparable.
 */
export function steppingClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    // +1: a Date drops the microseconds the database stamps rows with (store/clock.ts rounds up alike).
    ...clockReading(() => Date.now() + 1 + offset),
    advance(ms) {
      offset += ms;
    },
  };
}

export function resetRequest(to: string, code = 'reset-code-1'): MailRequest<'password_reset'> {
  return {
    kind: 'password_reset',
    accountId: null,
    to,
    language: 'en',
    values: { userName: 'Dana Demo', link: `${PUBLIC_URL}/resetPassword/1/${code}` },
  };
}

export async function outboxRow(db: Db, id: string) {
  const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
  if (!row) throw new Error(`no outbox row ${id}`);
  return row;
}

/** Resolves once `condition` holds, checking every 10 ms; fails after `timeoutMs`. */
export async function eventually(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** SMTP sinks and mail services of a test file's tests: see useMailServices. */
export interface MailServices {
  /** A sink that receives what a service sends; closed after the test. */
  sinkFor(options?: SmtpSinkOptions): Promise<SmtpSink>;
  /** A mail service on the file's database sending to `smtpUrl`, without jitter; stopped after the test. */
  serviceFor(smtpUrl: string, clock?: Clock, log?: MailLog, meter?: MailMeter): MailService;
}

/** For a file's tests on `testDb`: an empty outbox before each test, and its sinks and services. */
export function useMailServices(testDb: () => Database): MailServices {
  const cleanup: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    await testDb().db.delete(outbox);
  });
  afterEach(async () => {
    for (const close of cleanup.splice(0).reverse()) await close();
  });
  return {
    async sinkFor(options) {
      const sink = await startSmtpSink(options);
      cleanup.push(() => sink.close());
      return sink;
    },
    serviceFor(smtpUrl, clock = steppingClock(), log = recordingLog(), meter = undefined) {
      const service = createMailService({
        config: testConfig({ PUBLIC_URL, SMTP_URL: smtpUrl }),
        db: testDb().db,
        log,
        clock,
        meter,
        // No jitter, so a retry's schedule is exact.
        random: () => 0.5,
      });
      cleanup.push(() => service.stop());
      return service;
    },
  };
}
