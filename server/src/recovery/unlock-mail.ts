import { type Language, VerificationType } from '@keycard/contract';
import type { Account } from '../accounts/account-repository.ts';
import { issueCodeUntil } from '../codes/codes.ts';
import { isDeliverableAddress } from '../mail/mail-request.ts';
import { type Clock, databaseClock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { mailLanguage } from './mail-language.ts';
import { unlockLink } from './mail-links.ts';
import type { MailingDeps } from './recovery-deps.ts';

export interface UnlockMailDeps extends Pick<MailingDeps, 'mail' | 'publicUrl' | 'codeLifetimes'> {
  /** The clock to read inside the lock's transaction; the database's by default (read on `tx`). */
  readonly clockIn?: (tx: Db) => Clock;
}

/**
 * The `onLocked` step of the login policy (DESIGN §2 Login): an unlock code (type 3) and the unlock mail
 * carrying PUBLIC_URL/unlock/<code>, written in the transaction that claimed the lock's one mail. The
 * sign-in wakes the mail worker once that transaction has committed (LoginDeps.nudgeMail).
 */
export function queueUnlockMail(
  deps: UnlockMailDeps,
): (tx: Db, account: Account, language: Language, flowLanguage?: Language | null) => Promise<void> {
  const clockIn = deps.clockIn ?? databaseClock;
  return async (tx, account, language, flowLanguage = null) => {
    // An address the outbox would refuse must not turn a failed sign-in into an error.
    if (!isDeliverableAddress(account.email)) return;
    const issued = await issueCodeUntil(tx, clockIn(tx), deps.codeLifetimes, {
      accountId: account.id,
      type: VerificationType.LockedAfterTooManyFailedAttempts,
    });
    await deps.mail.queue(tx, {
      kind: 'unlock',
      accountId: account.id,
      to: account.email,
      language: mailLanguage(account, language, flowLanguage),
      values: { userName: account.displayName, link: unlockLink(deps.publicUrl, issued.code) },
      expiresAt: issued.expiresAt,
      codeId: issued.id,
    });
  };
}
