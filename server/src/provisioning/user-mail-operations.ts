import type { Language } from '@keycard/contract';
import { VerificationType } from '@keycard/contract';
import { type Account, insertAccount } from '../accounts/account-repository.ts';
import { emailDomain, storedEmailForm } from '../accounts/identifiers.ts';
import type { CodeType } from '../codes/codes.ts';
import { InputError } from '../errors/input-error.ts';
import { parseInput } from '../errors/parse-input.ts';
import { ConflictError } from '../errors/service-error.ts';
import { upstreamProviderIdForDomain } from '../federation/home-realm.ts';
import { isDeliverableAddress, MailRequestError } from '../mail/mail-request.ts';
import { inviteUser } from '../recovery/invite-user.ts';
import type { MailingDeps } from '../recovery/recovery-deps.ts';
import { requestEmailChange } from '../recovery/request-email-change.ts';
import type { Db } from '../store/database.ts';
import { noAccount, noTarget, requireTarget, summarize } from './account-target.ts';
import { auditAdmin } from './provisioning-audit.ts';
import type { ProvisioningDeps } from './provisioning-deps.ts';
import { inMailingTransaction } from './provisioning-mailing.ts';
import {
  type AccountInput,
  type AddUserResult,
  accountInput,
  type ChangeEmailInput,
  type ChangeEmailResult,
  changeEmailInput,
  type InviteResult,
} from './user-schemas.ts';

/**
 * The user commands that send mail (DESIGN §1 Provisioning, §5). Codes and mail come from the
 * recovery domain functions, run inside the operation's own transaction (provisioning-mailing.ts), so the
 * account change, the code, its mail and the audit event commit together or not at all.
 */

/** The hours an issued link stays valid, as the admin is told (the configured lifetime). */
function validHours(mailing: MailingDeps, type: CodeType): number {
  return Math.round(mailing.codeLifetimes[type] / 3_600_000);
}

export function accountExists(email: string): ConflictError {
  return new ConflictError(`an account with the e-mail ${email} already exists`, 'email');
}

/** Bound to an upstream provider, or of a domain that is: such accounts never use a local password. */
export async function signsInUpstream(
  db: Db,
  account: Pick<Account, 'email' | 'externalIdpId'>,
): Promise<boolean> {
  if (account.externalIdpId !== null) return true;
  return (await upstreamProviderIdForDomain(db, emailDomain(account.email))) !== null;
}

/** user:add without a password: the account, and its invitation unless its domain signs in upstream. */
export async function addAndInvite(
  deps: ProvisioningDeps,
  email: string,
  name: string,
  language: Language | null = null,
): Promise<AddUserResult> {
  const upstream = await signsInUpstream(deps.db, { email, externalIdpId: null });
  return inMailingTransaction(deps, async (tx, mailing) => {
    const account = await insertAccount(tx, { email, displayName: name, locale: language });
    if (!account) throw accountExists(email);
    await auditAdmin(tx, deps, 'user:add', account.id);
    if (!upstream && (await inviteUser(mailing, account.id)).outcome !== 'invited') {
      throw new Error('the account just created was not found');
    }
    const invitation = upstream ? ('signs_in_upstream' as const) : ('queued' as const);
    return { account: summarize(account), hasPassword: false, invitation };
  });
}

/** Why an invitation would be of no use, or undefined when it may be sent. */
async function invitationRefusal(db: Db, account: Account): Promise<string | undefined> {
  if (account.disabledAt !== null) return `${account.email} is disabled; enable it before inviting`;
  if (account.passwordHash !== null) {
    return `${account.email} already has a password; the forgot-password page lets its owner set a new one`;
  }
  if (await signsInUpstream(db, account)) {
    return `${account.email} signs in through its organisation's identity provider and needs no password`;
  }
  if (!isDeliverableAddress(account.email)) return `the address ${account.email} cannot receive mail`;
  return undefined;
}

/**
 * user:invite: a VerifyUser code and the invitation whose link sets the first password. Only for an
 * enabled local account that has no password yet; a new invitation makes earlier links stop working.
 */
export async function inviteAccount(deps: ProvisioningDeps, input: AccountInput): Promise<InviteResult> {
  const account = await requireTarget(deps.db, parseInput(accountInput, input));
  const refusal = await invitationRefusal(deps.db, account);
  if (refusal !== undefined) throw new ConflictError(refusal);
  return inMailingTransaction(deps, async (tx, mailing) => {
    if ((await inviteUser(mailing, account.id)).outcome !== 'invited') throw noAccount(account.email);
    await auditAdmin(tx, deps, 'user:invite', account.id);
    return { account: summarize(account), validHours: validHours(mailing, VerificationType.VerifyUser) };
  });
}

/**
 * user:change-email: the confirmation link to the new address and a notice to the old one. The
 * address changes only when the link is opened, and only if nobody has taken it meanwhile.
 */
export async function changeEmail(
  deps: ProvisioningDeps,
  input: ChangeEmailInput,
): Promise<ChangeEmailResult> {
  const parsed = parseInput(changeEmailInput, input);
  const { newEmail } = parsed;
  const account = await requireTarget(deps.db, parsed);
  // Its link would only fail (a disabled account's links wait), after mailing both addresses.
  if (account.disabledAt !== null) {
    throw new ConflictError(`${account.email} is disabled; enable it before changing its address`);
  }
  // Its organisation's provider vouches for its address at each sign-in and puts it back
  // (federation/upstream-address.ts): a change here would be confirmed and then undone unseen.
  if (account.externalIdpId !== null) {
    throw new ConflictError(
      `${account.email} signs in through its organisation's identity provider, which keeps its address; change it there`,
    );
  }
  try {
    return await inMailingTransaction(deps, async (tx, mailing) => {
      const requested = await requestEmailChange(mailing, account.id, newEmail);
      if (requested.outcome === 'not_found') throw noTarget(parsed);
      if (requested.outcome === 'unchanged') {
        throw new InputError('must differ from the current address', 'newEmail');
      }
      if (requested.outcome === 'taken') {
        throw new ConflictError(`another account already uses the e-mail ${newEmail}`, 'newEmail');
      }
      await auditAdmin(tx, deps, 'user:change-email', account.id);
      return {
        account: summarize(account),
        newEmail: storedEmailForm(newEmail),
        validHours: validHours(mailing, VerificationType.EmailChanged),
      };
    });
  } catch (error) {
    // The new address was checked above, so it is the notice to the old one that cannot be queued.
    if (!(error instanceof MailRequestError && error.field === 'to')) throw error;
    throw new ConflictError(`the current address ${account.email} cannot receive the notice of the change`);
  }
}
