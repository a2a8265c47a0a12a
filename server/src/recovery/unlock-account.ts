import { VerificationType } from '@keycard/contract';
import {
  clearFailures,
  findAccountById,
  holdEnabledAccount,
  markEmailVerified,
} from '../accounts/account-repository.ts';
import { identifierHash } from '../accounts/identifiers.ts';
import { isLocked } from '../accounts/lockout.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { claimFirstUse } from '../codes/code-repository.ts';
import { retriedTransaction } from '../store/retried-transaction.ts';
import { countWrongCode, guessingBlocked } from './code-guessing.ts';
import { findStoredCode } from './code-states.ts';
import type { RecoveryDeps } from './recovery-deps.ts';
import { redirectOrDefault } from './redirect-targets.ts';

export interface UnlockInput {
  code: string;
  redirectUrl?: string | null;
  ip: string | null;
}

export type UnlockOutcome =
  | { outcome: 'unlocked'; userName: string; redirectUrl: string }
  | { outcome: 'expired' }
  | { outcome: 'invalid' };

const UNLOCK_TYPES = [VerificationType.LockedAfterTooManyFailedAttempts] as const;

/**
 * SPEC §4 unlock, which acts on load. Idempotent within the code's lifetime (DESIGN §2 Codes): the first
 * use clears the lock and is recorded; a later open (a person after a mail scanner) shows the same
 * success and changes nothing, so it cannot lift a newer lock either. Once a newer lock is in force,
 * a used link says it has expired rather than claim a success the person would find untrue (the
 * newer lock mails a link of its own). A code replaced by a newer unlock mail counts as expired.
 */
export async function unlockAccount(deps: RecoveryDeps, input: UnlockInput): Promise<UnlockOutcome> {
  if (await guessingBlocked(deps.limits, input.ip)) return { outcome: 'invalid' };
  const stored = await findStoredCode(deps.db, input.code, UNLOCK_TYPES);
  const found = stored ? await findAccountById(deps.db, stored.accountId) : null;
  // A disabled account's link is refused as unknown, as the reset link is, and kept for when the
  // account is enabled again: an administrator froze the account, the link does not change it.
  // Stryker disable next-line ConditionalExpression: the transaction below refuses it the same way; this spares it
  const account = found?.disabledAt === null ? found : null;
  if (!stored || !account) {
    await countWrongCode(deps.limits, input.ip);
    return { outcome: 'invalid' };
  }
  const now = await deps.clock.now();
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the transaction below answers a dead code the same way; this spares it
  if (stored.expiresAt <= now || stored.supersededAt !== null) {
    await countWrongCode(deps.limits, input.ip);
    return { outcome: 'expired' };
  }
  const identifier = identifierHash(account.email);
  // Decided again under the account's row: a disable, a newer mail, a change of address (which
  // supersedes the code) or a parallel open since the reads above wins. Run again after a deadlock.
  const outcome = await retriedTransaction(deps.db, async (tx) => {
    if ((await holdEnabledAccount(tx, account.id)) === null) return 'invalid';
    const use = await claimFirstUse(tx, stored.id, now);
    if (use === 'used') return (await isLocked(tx, identifier, now)) ? 'locked_again' : 'unlocked';
    if (use !== 'claimed') return 'expired';
    await clearFailures(tx, identifier);
    // The link came by mail: whoever used it holds the address.
    await markEmailVerified(tx, account.id);
    await recordAudit(tx, {
      event: 'unlock',
      outcome: 'success',
      accountId: account.id,
      ip: input.ip,
      detail: { via: 'link' },
    });
    return 'unlocked';
  });
  // Counted as the reads above count them.
  if (outcome === 'invalid' || outcome === 'expired') await countWrongCode(deps.limits, input.ip);
  if (outcome !== 'unlocked') return { outcome: outcome === 'invalid' ? 'invalid' : 'expired' };
  return {
    outcome: 'unlocked',
    userName: account.displayName,
    redirectUrl: await redirectOrDefault(deps, input.redirectUrl),
  };
}
