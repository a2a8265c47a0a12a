import { VerificationType } from '@keycard/contract';
import {
  type Account,
  findAccountById,
  holdEnabledAccount,
  replaceEmail,
} from '../accounts/account-repository.ts';
import { normalizeEmail } from '../accounts/identifiers.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { claimFirstUse, type StoredCode, supersedeCodes } from '../codes/code-repository.ts';
import { CODES_OF_AN_ADDRESS } from '../codes/codes.ts';
import { retriedTransaction } from '../store/retried-transaction.ts';
import { isUniqueViolation } from '../store/sql-state.ts';
import { countWrongCode, guessingBlocked } from './code-guessing.ts';
import { findStoredCode } from './code-states.ts';
import { mailLanguage } from './mail-language.ts';
import type { RecoveryDeps, Requester } from './recovery-deps.ts';
import { redirectOrDefault } from './redirect-targets.ts';

export interface ConfirmNewEmailInput extends Requester {
  code: string;
  redirectUrl?: string | null;
}

export type ConfirmNewEmailOutcome =
  | { outcome: 'confirmed'; firstName: string; redirectUrl: string }
  | { outcome: 'failed' };

const EMAIL_TYPES = [VerificationType.EmailChanged, VerificationType.ContactEmailChanged] as const;
const FAILED: ConfirmNewEmailOutcome = { outcome: 'failed' };

/** What the first open of a link did: see applyChange. */
type Change = 'changed' | 'taken' | 'refused' | 'used' | 'linked';

/** Ends applyChange's transaction without keeping any of it, for the reason `change`. */
class ChangeUndone extends Error {
  constructor(readonly change: 'refused' | 'used') {
    super(change);
  }
}

/**
 * The first use: swaps the address when it is still free (else nothing changes and the code stays
 * unspent), spends every other code mailed before, tells the old address, records the change.
 * 'taken' when the address was taken; 'linked' when the account was linked to an upstream provider
 * since the link was mailed; 'refused' when, since the caller read them, the account was disabled or
 * the code expired or was superseded; 'used' when another open used the code since
 * (nothing changes then either: the address may have moved on since that open).
 */
async function applyChange(
  deps: RecoveryDeps,
  input: ConfirmNewEmailInput,
  stored: StoredCode,
  account: Account,
  newEmail: string,
  now: Date,
): Promise<Change> {
  // Run again after a deadlock: it takes the account's row, then its codes', which a reset takes the
  // other way round.
  try {
    return await retriedTransaction(deps.db, async (tx) => {
      // Under the account's row, a disable since the caller's read is seen, or waits for this change.
      const held = await holdEnabledAccount(tx, account.id);
      if (held === null) return 'refused';
      // Linked to its organisation's provider since the link was mailed (a first sign-in there): the
      // provider vouches for its address at each sign-in and would put the old one back unseen
      // (federation/upstream-address.ts), as user:change-email says when it refuses such an account.
      if (held.externalIdpId !== null) return 'linked';
      if (!(await replaceEmail(tx, account.id, newEmail))) return 'taken';
      const use = await claimFirstUse(tx, stored.id, now);
      // Another open of the same link claimed it first and told the old address itself; the swap
      // above must not stay, or an open that read the link before that one used it would put back an
      // address the account has left since (a later change, confirmed).
      if (use === 'used') throw new ChangeUndone('used');
      // Nor when the code died meanwhile.
      if (use !== 'claimed') throw new ChangeUndone('refused');
      await supersedeCodes(tx, account.id, CODES_OF_AN_ADDRESS, now);
      await deps.mail.queue(tx, {
        kind: 'email_changed',
        accountId: account.id,
        to: account.email,
        language: mailLanguage(account, input.language),
        values: { userName: account.displayName, newEmail },
      });
      await recordAudit(tx, {
        event: 'email_change',
        outcome: 'success',
        accountId: account.id,
        ip: input.ip,
      });
      return 'changed';
    });
  } catch (error) {
    if (error instanceof ChangeUndone) return error.change;
    throw error;
  }
}

/** Whether the account, read now, has the address `email`. */
async function hasAddress(deps: RecoveryDeps, accountId: string, email: string): Promise<boolean> {
  const account = await findAccountById(deps.db, accountId);
  // Stryker disable next-line ConditionalExpression: only an account deleted between the change's transaction, which held it, and this read is null here; no test can place a deletion in that gap
  return account !== null && normalizeEmail(account.email) === normalizeEmail(email);
}

/**
 * The first open of the link: applies the change, or records why not. An account created with the new
 * address at the same moment loses the race to the unique index, which is a taken address too.
 */
async function changeNow(...args: Parameters<typeof applyChange>): Promise<boolean> {
  const [deps, input, , account, newEmail] = args;
  let change: Change;
  try {
    change = await applyChange(...args);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    change = 'taken';
  }
  if (change === 'changed') {
    deps.mail.nudge();
    return true;
  }
  // As a later open of a used link: confirmed while the account has the address it names.
  if (change === 'used') return hasAddress(deps, account.id, newEmail);
  // Counted as confirmNewEmail's reads count a link they find dead or of a disabled account.
  if (change === 'refused') await countWrongCode(deps.limits, input.ip);
  // A link the person was mailed, refused for what became of the account: no guess to count, and
  // on record for the administrator who asked for the change.
  if (change === 'taken' || change === 'linked') {
    await recordAudit(deps.db, {
      event: 'email_change',
      outcome: 'refused',
      accountId: account.id,
      ip: input.ip,
      detail: { reason: change === 'taken' ? 'address_taken' : 'signs_in_upstream' },
    });
  }
  return false;
}

/**
 * SPEC §4 verify new e-mail, which acts on load. Idempotent within the code's lifetime like unlock
 * (DESIGN §2 Codes): a later open of a used link succeeds while the account has the new address. A
 * disabled account's link changes nothing and is kept for when the account is enabled again.
 */
export async function confirmNewEmail(
  deps: RecoveryDeps,
  input: ConfirmNewEmailInput,
): Promise<ConfirmNewEmailOutcome> {
  if (await guessingBlocked(deps.limits, input.ip)) return FAILED;
  const stored = await findStoredCode(deps.db, input.code, EMAIL_TYPES);
  const found = stored ? await findAccountById(deps.db, stored.accountId) : null;
  const account = found?.disabledAt === null ? found : null;
  const newEmail = stored?.payload?.newEmail;
  const now = await deps.clock.now();
  if (!stored || !account || !newEmail || stored.expiresAt <= now || stored.supersededAt !== null) {
    await countWrongCode(deps.limits, input.ip);
    return FAILED;
  }
  const confirmed = stored.consumedAt
    ? normalizeEmail(account.email) === normalizeEmail(newEmail)
    : await changeNow(deps, input, stored, account, newEmail, now);
  if (!confirmed) return FAILED;
  return {
    outcome: 'confirmed',
    firstName: account.firstName,
    redirectUrl: await redirectOrDefault(deps, input.redirectUrl),
  };
}
