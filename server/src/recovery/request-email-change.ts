import { VerificationType } from '@keycard/contract';
import { findAccountById } from '../accounts/account-repository.ts';
import { normalizeEmail, storedEmailForm } from '../accounts/identifiers.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { issueCodeUntil } from '../codes/codes.ts';
import { emailIsFree } from './account-email.ts';
import { fixedClock } from './fixed-clock.ts';
import { mailLanguage } from './mail-language.ts';
import { verifyNewEmailLink } from './mail-links.ts';
import type { MailingDeps } from './recovery-deps.ts';

export type EmailChangeRequest = { outcome: 'requested' } | { outcome: 'not_found' | 'unchanged' | 'taken' };

/**
 * DESIGN §1 Provisioning, for the admin CLI and API: an EmailChanged (7) code carrying the new address,
 * the confirmation link to the NEW address and a notice to the OLD one, in one transaction. Nothing
 * changes until the link is opened (confirm-new-email.ts), and then only if the address is still free.
 * The caller validates the address's shape.
 */
export async function requestEmailChange(
  deps: MailingDeps,
  accountId: string,
  newEmail: string,
): Promise<EmailChangeRequest> {
  const account = await findAccountById(deps.db, accountId);
  if (!account) return { outcome: 'not_found' };
  const wanted = storedEmailForm(newEmail);
  // The account's own address, not its stored key, which another release may have written.
  if (normalizeEmail(wanted) === normalizeEmail(account.email)) return { outcome: 'unchanged' };
  if (!(await emailIsFree(deps.db, wanted, account.id))) return { outcome: 'taken' };
  const now = await deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const issued = await issueCodeUntil(tx, fixedClock(now), deps.codeLifetimes, {
      accountId: account.id,
      type: VerificationType.EmailChanged,
      payload: { newEmail: wanted },
    });
    const language = mailLanguage(account);
    await deps.mail.queue(tx, {
      kind: 'email_change_confirm',
      accountId: account.id,
      to: wanted,
      language,
      values: {
        userName: account.displayName,
        link: verifyNewEmailLink(deps.publicUrl, issued.code),
        newEmail: wanted,
      },
      expiresAt: issued.expiresAt,
      codeId: issued.id,
    });
    await deps.mail.queue(tx, {
      kind: 'email_change_notice',
      accountId: account.id,
      to: account.email,
      language,
      values: { userName: account.displayName, newEmail: wanted },
    });
    await recordAudit(tx, {
      event: 'email_change',
      outcome: 'success',
      accountId: account.id,
      detail: { step: 'requested' },
    });
  });
  deps.mail.nudge();
  return { outcome: 'requested' };
}
