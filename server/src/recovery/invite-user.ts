import { VerificationType } from '@keycard/contract';
import { findAccountById } from '../accounts/account-repository.ts';
import { issueCodeUntil } from '../codes/codes.ts';
import { fixedClock } from './fixed-clock.ts';
import { mailLanguage } from './mail-language.ts';
import { resetPasswordLink } from './mail-links.ts';
import type { MailingDeps } from './recovery-deps.ts';

export type InviteOutcome = { outcome: 'invited' } | { outcome: 'not_found' };

/**
 * DESIGN §1 Provisioning, for the admin CLI and API: a VerifyUser (6) code and the invitation mail whose
 * link sets the first password (PUBLIC_URL/resetPassword/6/<code>). A new invitation replaces the last.
 */
export async function inviteUser(deps: MailingDeps, accountId: string): Promise<InviteOutcome> {
  const account = await findAccountById(deps.db, accountId);
  if (!account) return { outcome: 'not_found' };
  const now = await deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const issued = await issueCodeUntil(tx, fixedClock(now), deps.codeLifetimes, {
      accountId: account.id,
      type: VerificationType.VerifyUser,
    });
    await deps.mail.queue(tx, {
      kind: 'invitation',
      accountId: account.id,
      to: account.email,
      language: mailLanguage(account),
      values: {
        userName: account.displayName,
        link: resetPasswordLink(deps.publicUrl, VerificationType.VerifyUser, issued.code),
      },
      expiresAt: issued.expiresAt,
      codeId: issued.id,
    });
  });
  deps.mail.nudge();
  return { outcome: 'invited' };
}
