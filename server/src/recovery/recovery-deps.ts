import type { Language, StrengthScore } from '@keycard/contract';
import type { CodeLifetimes } from '../config.ts';
import type { Mailer } from '../mail/mail-service.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import type { RecoveryLimits } from './recovery-limits.ts';

/**
 * How recovery flows hand a message to the mail outbox (mail-service.ts): `queue` writes it in the
 * caller's transaction, so a code and the mail carrying it commit together; `nudge` wakes the worker
 * after the commit. Nothing is ever sent inline, so a slow or dead SMTP server changes no answer.
 */
export type MailQueue = Pick<Mailer, 'queue' | 'nudge'>;

/** What the mail-sending recovery steps need; also enough for the admin CLI/API to call them. */
export interface MailingDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly mail: MailQueue;
  /** PUBLIC_URL: the only origin mail links are built from, never the request's Host (DESIGN §2). */
  readonly publicUrl: string;
  /** How long each type of code works (DESIGN §2 Codes, configurable); its mail expires with it. */
  readonly codeLifetimes: CodeLifetimes;
}

/** Everything the recovery flows of DESIGN §2 need; no HTTP in here. */
export interface RecoveryDeps extends MailingDeps {
  /** DEFAULT_REDIRECT_URL: where a flow goes when no valid redirect was given. */
  readonly defaultRedirectUrl: string;
  /** PASSWORD_HISTORY: how many earlier password hashes a reset may not reuse. */
  readonly passwordHistory: number;
  /** PASSWORD_MIN_SCORE: the least strength of a new password (accounts/password-policy.ts). */
  readonly passwordMinScore: StrengthScore;
  readonly limits: RecoveryLimits;
  /**
   * Resolves after `ms` milliseconds: the timer forgot-password's minimum answer time waits on. A
   * dependency like the clock, so tests step it instead of waiting.
   */
  readonly sleep: (ms: number) => Promise<void>;
}

/** A request's client address and language, as far as a flow needs them. */
export interface Requester {
  readonly ip: string | null;
  /** The request's language, used for mail when the account has none. */
  readonly language: Language;
  /** The language the sign-in flow asked for (`ui_locales`), which mail of that flow is written in. */
  readonly flowLanguage?: Language | null;
}
