import {
  clearFailures,
  findLoginFailures,
  insertAccount,
  type LoginFailureRow,
  setDisabled,
  setLocale,
  setMustChangePassword,
  storePassword,
} from '../accounts/account-repository.ts';
import { identifierHash } from '../accounts/identifiers.ts';
import { hashPassword } from '../accounts/password-hash.ts';
import { brokenPasswordRules } from '../accounts/password-policy.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { InputError } from '../errors/input-error.ts';
import { parseInput } from '../errors/parse-input.ts';
import { ConflictError } from '../errors/service-error.ts';
import { isDeliverableAddress } from '../mail/mail-request.ts';
import { endAccountSessionsWithLogout } from '../oidc/logout.ts';
import { fixedClock } from '../recovery/fixed-clock.ts';
import { mailLanguage } from '../recovery/mail-language.ts';
import { retriedTransaction } from '../store/retried-transaction.ts';
import { noTarget, requireTarget, summarize } from './account-target.ts';
import { describeBrokenRules } from './password-message.ts';
import { auditAdmin, originColumns } from './provisioning-audit.ts';
import { clockOf, type ProvisioningDeps } from './provisioning-deps.ts';
import { inMailingTransaction } from './provisioning-mailing.ts';
import { accountExists, addAndInvite, signsInUpstream } from './user-mail-operations.ts';
import {
  type AccountChangeResult,
  type AccountInput,
  type AddUserInput,
  type AddUserResult,
  accountInput,
  addUserInput,
  type SetLanguageInput,
  setLanguageInput,
  type UnlockResult,
} from './user-schemas.ts';

/**
 * Account operations of the admin CLI and admin API (DESIGN §1 Provisioning). Each validates its
 * input, changes the account in one transaction and records an audit event that names the command
 * and never a password. A refusal is thrown: InputError, NotFoundError or ConflictError.
 */

/**
 * Creates a local account (DESIGN §5): with the given first password (checked against the policy),
 * or without one and with an invitation whose link sets it (user-mail-operations.ts).
 */
export async function addUser(deps: ProvisioningDeps, input: AddUserInput): Promise<AddUserResult> {
  const { email, name, password, language = null } = parseInput(addUserInput, input);
  if (password === undefined) return addAndInvite(deps, email, name, language);
  // Its sign-in would refuse the password while the domain is bound, and take it, unseen, once unbound.
  if (await signsInUpstream(deps.db, { email, externalIdpId: null })) {
    throw new ConflictError(
      `${email} signs in through its organisation's identity provider; add it without a password`,
      'password',
    );
  }
  // The policy of a reset, strength included, with this account's address and name as its context.
  const broken = brokenPasswordRules(password, { email, displayName: name }, deps.passwordMinScore);
  if (broken.length > 0) throw new InputError(describeBrokenRules(broken), 'password');
  // Hashed before the transaction: argon2 takes a while and needs no database lock.
  const hash = await hashPassword(password);
  const now = await clockOf(deps).now();
  return deps.db.transaction(async (tx) => {
    const account = await insertAccount(tx, { email, displayName: name, locale: language });
    if (!account) throw accountExists(email);
    await storePassword(tx, account.id, hash, now);
    await auditAdmin(tx, deps, 'user:add', account.id);
    return { account: summarize(account), hasPassword: true, invitation: 'not_needed' as const };
  });
}

/**
 * DESIGN §2 Login: the next correct sign-in must change the password (verificationType 2). An admin
 * expires a password on evidence it is known to someone else, so the sign-ins it already opened end
 * too, as a disable ends them: a stolen session or refresh token must not outlive the order to change
 * it. Each relying party hears of it by back-channel logout. Run again on an account already expired,
 * it changes no flag and mails nobody, but still ends what is open: a session from an upstream
 * sign-in (which asks for no password), or one an earlier release left when it expired the password.
 */
export async function expirePassword(
  deps: ProvisioningDeps,
  input: AccountInput,
): Promise<AccountChangeResult> {
  const ref = parseInput(accountInput, input);
  const account = await requireTarget(deps.db, ref);
  const changed = await inMailingTransaction(deps, async (tx, mailing) => {
    const flag = await setMustChangePassword(tx, account.id);
    // Deleted since it was read: nothing to expire, nobody to tell.
    if (flag === 'gone') throw noTarget(ref);
    await endAccountSessionsWithLogout(tx, mailing.clock, account.id);
    await auditAdmin(tx, deps, 'user:expire-password', account.id);
    // Tell the owner why the next sign-in asks for a new password, once; an account without one yet
    // (invited) or an address the outbox refuses gets no notice.
    if (flag === 'set' && account.passwordHash !== null && isDeliverableAddress(account.email)) {
      await mailing.mail.queue(tx, {
        kind: 'password_expired',
        accountId: account.id,
        to: account.email,
        language: mailLanguage(account),
        values: { userName: account.displayName },
      });
    }
    return flag === 'set';
  });
  return { account: summarize(account), changed };
}

function lockInForce(row: LoginFailureRow, now: Date): boolean {
  return row.lockedAt !== null && (row.lockedUntil === null || row.lockedUntil > now);
}

/**
 * Clears the identifier's failure counter and lock (DESIGN §2 Login), as the unlock link does.
 * Recorded even when nothing was locked: who unlocked whom is worth knowing either way.
 */
export async function unlockUser(deps: ProvisioningDeps, input: AccountInput): Promise<UnlockResult> {
  const account = await requireTarget(deps.db, parseInput(accountInput, input));
  const id = identifierHash(account.email);
  const now = await clockOf(deps).now();
  return deps.db.transaction(async (tx) => {
    const row = await findLoginFailures(tx, id);
    const wasLocked = row !== null && lockInForce(row, now);
    await clearFailures(tx, id);
    // The security event of DESIGN §2 (as for the e-mailed link), and the admin action that caused it.
    await recordAudit(tx, {
      event: 'unlock',
      outcome: 'success',
      accountId: account.id,
      ...originColumns(deps),
      detail: { via: 'admin', wasLocked },
    });
    await auditAdmin(tx, deps, 'user:unlock', account.id);
    return { account: summarize(account), wasLocked, failuresCleared: row?.failureCount ?? 0 };
  });
}

/**
 * Sets or clears disabled_at. Repeating it changes nothing, so nothing is recorded either. Disabling
 * also ends the account's sessions and grants: a browser that signed in before must not go on
 * getting codes by single sign-on.
 */
async function changeDisabled(
  deps: ProvisioningDeps,
  input: AccountInput,
  disabled: boolean,
): Promise<AccountChangeResult> {
  const ref = parseInput(accountInput, input);
  const account = await requireTarget(deps.db, ref);
  if ((account.disabledAt !== null) === disabled) return { account: summarize(account), changed: false };
  const now = await clockOf(deps).now();
  // Run again after a conflict with a transaction on the same rows (the account's sessions, grants).
  await retriedTransaction(deps.db, async (tx) => {
    // Deleted since it was read: nothing to change and nothing to record.
    if (!(await setDisabled(tx, account.id, disabled))) throw noTarget(ref);
    if (disabled) await endAccountSessionsWithLogout(tx, fixedClock(now), account.id);
    await auditAdmin(tx, deps, disabled ? 'user:disable' : 'user:enable', account.id);
  });
  return { account: summarize(account), changed: true };
}

/**
 * Sets the language every mail to the account is written in (null: each in the language of the
 * request that causes it, mail-language.ts). Repeating it changes nothing, so nothing is recorded
 * either.
 */
export async function setLanguage(
  deps: ProvisioningDeps,
  input: SetLanguageInput,
): Promise<AccountChangeResult> {
  const { language, ...ref } = parseInput(setLanguageInput, input);
  const account = await requireTarget(deps.db, ref);
  const outcome = await deps.db.transaction(async (tx) => {
    const set = await setLocale(tx, account.id, language);
    if (set === 'set') await auditAdmin(tx, deps, 'user:set-language', account.id, { language });
    return set;
  });
  // Deleted since it was read: nothing to report on.
  if (outcome === 'gone') throw noTarget(ref);
  return { account: summarize(account), changed: outcome === 'set' };
}

export function disableUser(deps: ProvisioningDeps, input: AccountInput): Promise<AccountChangeResult> {
  return changeDisabled(deps, input, true);
}

export function enableUser(deps: ProvisioningDeps, input: AccountInput): Promise<AccountChangeResult> {
  return changeDisabled(deps, input, false);
}
