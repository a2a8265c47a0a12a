import { randomBytes } from 'node:crypto';
import { VerificationType } from '@keycard/contract';
import { type Account, findAccountByEmail, keepAccount } from '../accounts/account-repository.ts';
import { emailDomain, normalizeEmail } from '../accounts/identifiers.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { codeHash, issueCodeUntil } from '../codes/codes.ts';
import { findProviderName } from '../federation/federation-repository.ts';
import { upstreamProviderIdForDomain } from '../federation/home-realm.ts';
import { isDeliverableAddress } from '../mail/mail-request.ts';
import type { Db } from '../store/database.ts';
import { clientNetwork } from './client-network.ts';
import { fixedClock } from './fixed-clock.ts';
import { mailLanguage } from './mail-language.ts';
import { resetPasswordLink } from './mail-links.ts';
import type { RecoveryDeps, Requester } from './recovery-deps.ts';
import { resetLinkQuery } from './redirect-targets.ts';

/**
 * Every forgot-password answer takes at least this long, so the little extra work for an existing
 * account (a code and a mail row) cannot be told from the nothing done for an unknown address.
 */
export const FORGOT_PASSWORD_MIN_MS = 250;

export interface ForgotPasswordInput extends Requester {
  email: string;
  locationSearch?: string | null;
}

type Recipient =
  | { kind: 'local'; account: Account }
  | { kind: 'federated'; account: Account; providerName: string }
  | { kind: 'nobody' };

const NOBODY: Recipient = { kind: 'nobody' };

/** Who gets which mail. Both queries run for every input, so the path taken does not show in timing. */
async function recipientFor(db: Db, email: string): Promise<Recipient> {
  const [account, domainProviderId] = await Promise.all([
    findAccountByEmail(db, email),
    upstreamProviderIdForDomain(db, emailDomain(email)),
  ]);
  // A disabled account gets no mail: it could not sign in with the new password anyway. An address the
  // outbox would refuse gets none either, rather than an answer that differs from everybody else's.
  if (!account || account.disabledAt !== null || !isDeliverableAddress(account.email)) return NOBODY;
  const providerId = account.externalIdpId ?? domainProviderId;
  if (providerId !== null)
    return { kind: 'federated', account, providerName: await findProviderName(db, providerId) };
  return { kind: 'local', account };
}

/**
 * False when the client or the address has asked too often; the answer stays the same either way. The
 * address is counted only for a request its client may make: else a client over its own limit would
 * still use up another person's mails, and so keep them from resetting their password unseen.
 */
async function withinLimits(deps: RecoveryDeps, input: ForgotPasswordInput): Promise<boolean> {
  // Stryker disable next-line StringLiteral: any key no real client address can equal counts the address-less requests together alike
  if (!(await deps.limits.forgotPerIp.take(clientNetwork(input.ip)))) return false;
  return deps.limits.forgotPerAddress.take(codeHash(`forgot:${normalizeEmail(input.email)}`));
}

/**
 * The recipient as its account is now: one deleted, disabled, moved to another address or linked to
 * another provider since it was read gets nothing, as an unknown address does (a deleted account's
 * code and mail could not even be written; a link to the address the account left would outlive that
 * address's other links). A deletion or a change of address that comes after waits until the code and
 * its mail are committed: a deletion then deletes both, a change of address retires the code with the
 * old address's other links (confirm-new-email.ts). A reset in progress is not waited for (it may hold
 * the reset code this request supersedes next, and would otherwise wait for this request in turn); nor
 * is a disable, which is then one that came a moment after the request: its link is mailed and changes
 * nothing while the account stays disabled (reset-password.ts).
 */
async function keptRecipient(tx: Db, recipient: Recipient): Promise<Recipient> {
  if (recipient.kind === 'nobody') return recipient;
  const read = recipient.account;
  const current = await keepAccount(tx, read.id);
  const unchanged =
    current !== null &&
    current.disabledAt === null &&
    current.emailNormalized === read.emailNormalized &&
    current.externalIdpId === read.externalIdpId;
  return unchanged ? { ...recipient, account: current } : NOBODY;
}

/** Queues the mail the request earns, if any, with its audit row; whether a mail was queued. */
async function queueMail(
  deps: RecoveryDeps,
  input: ForgotPasswordInput,
  found: Recipient,
  allowed: boolean,
): Promise<boolean> {
  const query = await resetLinkQuery(deps, input.locationSearch);
  const now = await deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const recipient = allowed ? await keptRecipient(tx, found) : found;
    if (allowed && recipient.kind === 'local') {
      const { account } = recipient;
      const issued = await issueCodeUntil(tx, fixedClock(now), deps.codeLifetimes, {
        accountId: account.id,
        type: VerificationType.PasswordReset,
      });
      await deps.mail.queue(tx, {
        kind: 'password_reset',
        accountId: account.id,
        to: account.email,
        language: mailLanguage(account, input.language, input.flowLanguage),
        values: {
          userName: account.displayName,
          link: resetPasswordLink(deps.publicUrl, 1, issued.code, query),
        },
        expiresAt: issued.expiresAt,
        codeId: issued.id,
      });
    } else if (allowed && recipient.kind === 'federated') {
      const { account } = recipient;
      // The same amount of code work as the local path.
      codeHash(randomBytes(32).toString('base64url'));
      await deps.mail.queue(tx, {
        kind: 'federated_account',
        accountId: account.id,
        to: account.email,
        language: mailLanguage(account, input.language, input.flowLanguage),
        values: { userName: account.displayName, providerName: recipient.providerName },
      });
      // Stryker disable next-line BlockStatement: the same code work as the other paths, for equal timing only; it changes no result
    } else {
      codeHash(randomBytes(32).toString('base64url'));
    }
    const accountId = recipient.kind === 'nobody' ? null : recipient.account.id;
    await recordAudit(tx, {
      event: 'reset_request',
      outcome: allowed ? 'success' : 'refused',
      accountId,
      ip: input.ip,
      ...(allowed ? {} : { detail: { reason: 'rate_limited' } }),
    });
    return allowed && recipient.kind !== 'nobody';
  });
}

/**
 * DESIGN §2 Forgot password. Resolves the same way, after the same minimum time, for an existing,
 * unknown, federated, disabled or locked address and when the limits are reached; changes no account
 * state (a lock stays); mail is only queued, so SMTP trouble cannot change the answer either.
 */
export async function requestPasswordReset(deps: RecoveryDeps, input: ForgotPasswordInput): Promise<void> {
  // Started before any work, so the answer comes at max(work, minimum) whatever the path.
  const floor = deps.sleep(FORGOT_PASSWORD_MIN_MS);
  const allowed = await withinLimits(deps, input);
  const recipient = await recipientFor(deps.db, input.email);
  if (await queueMail(deps, input, recipient, allowed)) deps.mail.nudge();
  await floor;
}
