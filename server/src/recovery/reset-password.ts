import { VerificationType } from '@keycard/contract';
import {
  type Account,
  clearFailures,
  findAccountById,
  forgetOlderPasswords,
  markEmailVerified,
  storePassword,
} from '../accounts/account-repository.ts';
import { identifierHash } from '../accounts/identifiers.ts';
import { hashPassword } from '../accounts/password-hash.ts';
import { meetsPasswordPolicy } from '../accounts/password-policy.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { consumeCode, findLiveCode } from '../codes/codes.ts';
import { isDeliverableAddress } from '../mail/mail-request.ts';
import { endAccountSessionsWithLogout } from '../oidc/logout.ts';
import { retriedTransaction } from '../store/retried-transaction.ts';
import { countWrongCode, guessingBlocked } from './code-guessing.ts';
import { RESET_TYPES, spendResetCodes } from './code-states.ts';
import { fixedClock } from './fixed-clock.ts';
import { mailLanguage } from './mail-language.ts';
import { reusesRecentPassword } from './password-reuse.ts';
import type { RecoveryDeps, Requester } from './recovery-deps.ts';
import { redirectOrDefault, signInPageOrDefault } from './redirect-targets.ts';

export interface ResetPasswordInput extends Requester {
  code: string;
  type: VerificationType;
  newPassword: string;
  /** Type 2: the full ReturnUrl of the sign-in (SPEC §7); otherwise the RedirectUrl. */
  redirectUrl?: string | null;
}

export type ResetOutcome =
  | { outcome: 'invalid' }
  | { outcome: 'policy_violation' }
  | { outcome: 'history_violation' }
  | { outcome: 'reset'; redirectUrl: string };

function isResetType(type: VerificationType): boolean {
  return (RESET_TYPES as readonly number[]).includes(type);
}

async function accountOfLiveCode(deps: RecoveryDeps, input: ResetPasswordInput): Promise<Account | null> {
  if (!isResetType(input.type)) return null;
  const live = await findLiveCode(deps.db, deps.clock, input.code, [input.type]);
  const account = live ? await findAccountById(deps.db, live.accountId) : null;
  return account && account.disabledAt === null ? account : null;
}

/**
 * Everything a reset changes, in one transaction (DESIGN §2): the code is spent first and only one of
 * any number of parallel resets gets it; then the new hash and its history row, the account's other
 * reset codes spent, its lock and failure count cleared, its sessions ended, the notice queued.
 */
async function applyReset(
  deps: RecoveryDeps,
  input: ResetPasswordInput,
  account: Account,
  passwordHash: string,
): Promise<boolean> {
  const now = await deps.clock.now();
  // Run again after a conflict with a transaction on the same rows (the account's sessions, grants).
  return retriedTransaction(deps.db, async (tx) => {
    const spent = await consumeCode(tx, fixedClock(now), input.code, [input.type]);
    if (!spent || spent.accountId !== account.id) return false;
    // Disabled (or deleted) while the new password was checked and hashed: the link changes nothing
    // and stays unspent, as for an account disabled before (it waits for an enable).
    if (!(await storePassword(tx, account.id, passwordHash, now))) throw new AccountGone();
    // The history the next reset is checked against, and nothing older.
    await forgetOlderPasswords(tx, account.id, deps.passwordHistory);
    // A reset or invitation link came by mail: whoever used it holds the address. The expired-password
    // code came with a sign-in, which proves nothing about the mailbox.
    if (input.type !== VerificationType.PasswordExpired) await markEmailVerified(tx, account.id);
    await spendResetCodes(tx, account.id, now);
    await clearFailures(tx, identifierHash(account.email));
    await endAccountSessionsWithLogout(tx, fixedClock(now), account.id);
    // An address the outbox would refuse must not cost the person their new password.
    if (isDeliverableAddress(account.email)) {
      await deps.mail.queue(tx, {
        kind: 'password_changed',
        accountId: account.id,
        to: account.email,
        language: mailLanguage(account, input.language),
        values: { userName: account.displayName },
      });
    }
    await recordAudit(tx, {
      event: 'password_reset',
      outcome: 'success',
      accountId: account.id,
      ip: input.ip,
      detail: { verificationType: input.type },
    });
    return true;
  }).catch((error: unknown) => {
    if (error instanceof AccountGone) return false;
    throw error;
  });
}

/** Rolls a reset back whole: its account was disabled or deleted after it was read. */
class AccountGone extends Error {}

/** Where the browser goes after a successful reset: always an absolute http(s) URL (DESIGN §2). */
function redirectAfterReset(deps: RecoveryDeps, input: ResetPasswordInput): Promise<string> | string {
  if (input.type === VerificationType.PasswordExpired) return signInPageOrDefault(deps, input.redirectUrl);
  return redirectOrDefault(deps, input.redirectUrl);
}

/**
 * SPEC §4/§5/§7 ResetPassword (DESIGN §2): policy and history are checked on the server before the
 * code is spent, so a refused password leaves the link usable. Type 6 (VerifyUser) sets the first one.
 */
export async function resetPassword(deps: RecoveryDeps, input: ResetPasswordInput): Promise<ResetOutcome> {
  if (await guessingBlocked(deps.limits, input.ip)) return { outcome: 'invalid' };
  const account = await accountOfLiveCode(deps, input);
  if (!account) {
    await countWrongCode(deps.limits, input.ip);
    return { outcome: 'invalid' };
  }
  // The account's address and name are the context the strength rule discounts (DESIGN §2, SPEC §5).
  const context = { email: account.email, displayName: account.displayName };
  if (!meetsPasswordPolicy(input.newPassword, context, deps.passwordMinScore)) {
    return { outcome: 'policy_violation' };
  }
  if (await reusesRecentPassword(deps.db, account, input.newPassword, deps.passwordHistory)) {
    return { outcome: 'history_violation' };
  }
  // Hashed before the transaction: argon2 takes a while and needs no database lock.
  const passwordHash = await hashPassword(input.newPassword);
  // Where the browser goes next is read before the code is spent: a read that fails then (the
  // database gone) refuses the reset whole, instead of failing the answer of one already made,
  // whose retry would find a spent link.
  const redirectUrl = await redirectAfterReset(deps, input);
  // A parallel reset that spent the code first makes this one a spent link.
  if (!(await applyReset(deps, input, account, passwordHash))) return { outcome: 'invalid' };
  deps.mail.nudge();
  return { outcome: 'reset', redirectUrl };
}
