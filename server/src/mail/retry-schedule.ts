import { loggableMessage } from '../errors/loggable-error.ts';
import { backoffDelayMs } from '../housekeeping/backoff.ts';

/**
 * When a failed message is tried again (DESIGN §2 Mail: exponential back-off, capped retries).
 * 30 s × 2^(n−1) after the n-th failure, capped at one hour, each ±20 % so instances that failed
 * together do not retry in lockstep. Ten attempts span about three hours of SMTP outage.
 */
export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_DELAY_MS = 3_600_000;
export const MAX_ATTEMPTS = 10;

/** Delay after the given number of failed attempts (1 = the first failure). `random` is in [0, 1). */
export function retryDelayMs(failedAttempts: number, random: () => number = Math.random): number {
  return backoffDelayMs({ baseMs: RETRY_BASE_MS, maxMs: RETRY_MAX_DELAY_MS }, failedAttempts, random);
}

/** Fields nodemailer sets on its errors. */
interface SmtpErrorFields {
  code?: unknown;
  responseCode?: unknown;
  /** The SMTP command the server refused. */
  command?: unknown;
}

/** The codes of a failed delivery (the transport's and the SMTP reply's), for the log. */
export function smtpCodes(error: unknown): { code?: string; responseCode?: number } {
  const { code, responseCode } = (
    typeof error === 'object' && error !== null ? error : {}
  ) as SmtpErrorFields;
  return {
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof responseCode === 'number' ? { responseCode } : {}),
  };
}

/**
 * A refusal that another attempt cannot change: the server answered 5xx to the recipient or the
 * message itself. Authentication and connection problems stay transient: they are fixed by
 * configuration, after which the retries deliver. So does a refused sender (MAIL FROM): it is
 * MAIL_FROM, the same for every message, not this message's fault.
 */
export function isPermanentRejection(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, responseCode, command } = error as SmtpErrorFields;
  const permanent = typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
  return permanent && command !== 'MAIL FROM' && (code === 'EENVELOPE' || code === 'EMESSAGE');
}

const MAX_ERROR_LENGTH = 500;

/**
 * What is stored in last_error and logged: the error code and message on one line, shortened, with
 * the SMTP credentials removed should a library ever echo them.
 */
export function describeError(error: unknown, secrets: readonly string[] = []): string {
  const code = typeof error === 'object' && error !== null ? (error as SmtpErrorFields).code : undefined;
  const message = loggableMessage(error);
  let text = typeof code === 'string' && !message.startsWith(code) ? `${code}: ${message}` : message;
  for (const secret of secrets) {
    if (secret.length >= 3) text = text.split(secret).join('[redacted]');
  }
  text = text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
