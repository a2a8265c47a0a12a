import nodemailer from 'nodemailer';
import { traced } from '../tracing/spans.ts';
import { linksIn } from './html.ts';

/** One message as the worker hands it to a transport. */
export interface OutgoingMail {
  /** The outbox row's id; also the Message-ID, so a resend after a lost answer is recognisable. */
  readonly id: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'dev-mailbox';
  /** Delivers one message or throws; an aborted signal cancels a send in progress. */
  send(mail: OutgoingMail, signal: AbortSignal): Promise<void>;
  /** Values that must never reach last_error or the log (the SMTP credentials). */
  readonly secrets: readonly string[];
  close(): void;
}

/** Bounds on a stuck server, so a dead or hanging SMTP server fails a send fast and retries later. */
export interface SmtpTimeouts {
  readonly connectionMs: number;
  readonly greetingMs: number;
  /** Inactivity on an open connection. */
  readonly socketMs: number;
}

export const SMTP_TIMEOUTS: SmtpTimeouts = { connectionMs: 10_000, greetingMs: 10_000, socketMs: 20_000 };

export interface SmtpTransportOptions {
  /** SMTP_URL: smtp:// (STARTTLS when offered) or smtps://, credentials in the URL. */
  readonly url: string;
  /** MAIL_FROM. */
  readonly from: string;
  /** Host part of Message-IDs: PUBLIC_URL's host. */
  readonly messageIdDomain: string;
  readonly timeouts?: SmtpTimeouts;
}

function credentialsOf(url: string): string[] {
  const { username, password } = new URL(url);
  return [password, username].filter((value) => value !== '').map(decodeURIComponent);
}

/** The SMTP server a send talks to, as a span names it: host and port, never the credentials. */
function serverAttributes(url: string): Record<string, string | number> {
  const { hostname, port, protocol } = new URL(url);
  return { 'server.address': hostname, 'server.port': Number(port) || (protocol === 'smtps:' ? 465 : 587) };
}

/** Sends through nodemailer, one connection per message (mail volume is low, and nothing idles open). */
export function smtpTransport(options: SmtpTransportOptions): MailTransport {
  const timeouts = options.timeouts ?? SMTP_TIMEOUTS;
  const transporter = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: timeouts.connectionMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
  });
  const span = { client: true, attributes: serverAttributes(options.url) };
  return {
    kind: 'smtp',
    secrets: credentialsOf(options.url),
    async send(mail, signal) {
      await traced('smtp.send', span, () =>
        transporter.sendMail({
          from: options.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: `<${mail.id}@${options.messageIdDomain}>`,
          // RFC 3834: automatic mail; out-of-office replies should not answer it.
          headers: { 'Auto-Submitted': 'auto-generated' },
          signal,
        }),
      );
    },
    close: () => transporter.close(),
  };
}

/** The log the development mailbox writes to (the service's logger). */
export interface MailLog {
  info(message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * DESIGN §2 Modes: without SMTP_URL in development nothing leaves the machine; a message counts as
 * sent, stays readable at /dev/mail, and one log line names it with its first link.
 */
export function devMailboxTransport(log: MailLog): MailTransport {
  return {
    kind: 'dev-mailbox',
    secrets: [],
    async send(mail) {
      const [link] = linksIn(mail.text);
      log.info(`Dev mailbox: to ${mail.to}, "${mail.subject}"${link === undefined ? '' : `, ${link}`}`);
    },
    close() {},
  };
}
