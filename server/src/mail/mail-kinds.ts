import type { Language } from '@keycard/contract';

/**
 * Every message Keycard sends (issue: account recovery by e-mail) and the values its template needs.
 * Links are absolute and built from PUBLIC_URL by the caller, never from a request's Host (DESIGN §2).
 */
export interface MailValues {
  /** Reset link for a forgotten password: PUBLIC_URL/resetPassword/1/<code>[?ReturnUrl|RedirectUrl]. */
  password_reset: { userName: string; link: string };
  /** Unlock link after a lock: PUBLIC_URL/unlock/<code>. */
  unlock: { userName: string; link: string };
  /** Invitation: set the first password, PUBLIC_URL/resetPassword/6/<code>. */
  invitation: { userName: string; link: string };
  /** Sent to the NEW address of an e-mail change: PUBLIC_URL/verifyNewEmail/<code>. */
  email_change_confirm: { userName: string; link: string; newEmail: string };
  /** Sent to the OLD address when an e-mail change was requested. */
  email_change_notice: { userName: string; newEmail: string };
  /** Sent to the OLD address once the change was confirmed: sign-in and mail now go to the new one. */
  email_changed: { userName: string; newEmail: string };
  /**
   * An administrator made the password expire: the next sign-in asks for a new one. No link: the
   * expired-password code is issued only after the right password (DESIGN §2 Login).
   */
  password_expired: { userName: string };
  /** After any successful password change (reset, expiry, first password). */
  password_changed: { userName: string };
  /** Forgot-password for an account that signs in through its organisation's identity provider. */
  federated_account: { userName: string; providerName: string };
}

export type MailKind = keyof MailValues;

/** One message to queue; written in the caller's transaction so the code and its mail commit together. */
export interface MailRequest<K extends MailKind = MailKind> {
  kind: K;
  to: string;
  /**
   * The account the message is about: deleting it deletes the message too (sent or not), so nothing
   * is mailed, nor kept, for an account that is gone. Null: about no account (a test's message).
   */
  accountId: string | null;
  /** The account's language when known, else the request's (by Accept-Language / requestedLanguageCode). */
  language: Language;
  values: MailValues[K];
  /** When the code of the message's link expires; the worker never delivers the message after that. */
  expiresAt?: Date;
  /**
   * The code of the message's link (codes.ts IssuedCode.id). Once that code is spent or superseded,
   * by a newer link or a change of address, the worker withdraws the message if it is not sent yet.
   */
  codeId?: string;
}
