/**
 * What the domain and the HTTP layer report to the metrics (metrics.ts), without knowing Prometheus.
 * Every label value is from a closed set named here: no address, code, token, IP or other text a
 * client chose ever becomes a label.
 */

/** How one sign-in ended: the values of keycard_sign_ins_total's `outcome`. */
export const SIGN_IN_OUTCOMES = [
  /** The password was right and the account signed in. */
  'success',
  /** Wrong password, unknown or disabled account, or a password for an address that signs in upstream. */
  'wrong',
  /** Refused because the identifier is locked (DESIGN §2 Login); the password was not checked. */
  'locked',
  /** The password was right but has expired: answered with a PasswordExpired code. */
  'expired',
  /** Signed in through an upstream identity provider (DESIGN §1 Federation). */
  'federated',
] as const;

export type SignInOutcome = (typeof SIGN_IN_OUTCOMES)[number];

export interface SignInMeter {
  signedIn(outcome: SignInOutcome): void;
  /** A failed attempt locked its identifier: once per lock, however many attempts ran in parallel. */
  lockedOut(): void;
}

export interface HashMeter {
  /** Runs one argon2 verification, timing it and the wait for a thread of the pool it runs on. */
  measure<T>(verification: () => Promise<T>): Promise<T>;
}

/** Why a message was given up (DESIGN §2 Mail): the values of keycard_mail_failed_total's `reason`. */
export const MAIL_FAILURE_REASONS = [
  /** The SMTP server refused the recipient or the message for good (5xx). */
  'rejected',
  /** Every attempt of the retry schedule failed. */
  'attempts',
  /** The link it carries expired before it could be delivered. */
  'expired',
] as const;

export type MailFailureReason = (typeof MAIL_FAILURE_REASONS)[number];

/** The outbox as a scrape sees it: the same on every instance, since they share the database. */
export interface OutboxState {
  /** Unsent messages that will still be tried (due now or waiting for their retry). */
  readonly pending: number;
  /** Messages given up, kept for `mail:failed --retry` until mail retention removes them. */
  readonly failed: number;
  /** Seconds since the oldest pending message was queued; 0 when none is pending. */
  readonly oldestPendingSeconds: number;
}

export interface MailMeter {
  sent(): void;
  /** An attempt failed and the message is scheduled again. */
  retried(): void;
  failed(reason: MailFailureReason, messages?: number): void;
  /** Unsent messages deleted because their link was replaced or used first (not a failure). */
  withdrawn(messages: number): void;
  /** How a scrape reads the outbox; the mail service sets it once. */
  readOutboxWith(read: () => Promise<OutboxState>): void;
}

/** One answered HTTP request, labelled only with values of closed sets (http/request-metrics.ts). */
export interface AnsweredRequest {
  /** GET, HEAD, POST, … or `other`. */
  readonly method: string;
  /** The route's pattern (`/dev/mail/:id`), never the URL itself; `fallback` for pages and not-found. */
  readonly route: string;
  /** The status code sent. */
  readonly status: string;
}

export interface HttpMeter {
  answered(request: AnsweredRequest, seconds: number): void;
}

/** For callers built without metrics (tests of one domain function): everything is dropped. */
export const UNMEASURED: {
  readonly signIns: SignInMeter;
  readonly hashes: HashMeter;
  readonly mail: MailMeter;
} = {
  signIns: { signedIn() {}, lockedOut() {} },
  hashes: { measure: (verification) => verification() },
  mail: { sent() {}, retried() {}, failed() {}, withdrawn() {}, readOutboxWith() {} },
};
