import type { VerificationType } from '@keycard/contract';
import { findAccountById } from '../accounts/account-repository.ts';
import { findLiveCode } from '../codes/codes.ts';
import { countWrongCode, guessingBlocked } from './code-guessing.ts';
import { RESET_TYPES } from './code-states.ts';
import type { RecoveryDeps } from './recovery-deps.ts';

export interface CheckVerificationInput {
  code: string;
  type: VerificationType;
  ip: string | null;
}

export interface VerificationCheck {
  isValid: boolean;
  /** The account's display name when the code is valid. */
  userName: string | null;
}

const INVALID: VerificationCheck = { isValid: false, userName: null };

function isResetType(type: VerificationType): boolean {
  return (RESET_TYPES as readonly number[]).includes(type);
}

/**
 * SPEC §4 reset page on load: is this a live code of exactly this type? Only reads, so a mail scanner
 * that opens the link first spends nothing (DESIGN §2 Codes).
 */
export async function checkVerification(
  deps: Pick<RecoveryDeps, 'db' | 'clock' | 'limits'>,
  input: CheckVerificationInput,
): Promise<VerificationCheck> {
  if (await guessingBlocked(deps.limits, input.ip)) return INVALID;
  const live = isResetType(input.type)
    ? await findLiveCode(deps.db, deps.clock, input.code, [input.type])
    : null;
  const account = live ? await findAccountById(deps.db, live.accountId) : null;
  if (!account || account.disabledAt !== null) {
    await countWrongCode(deps.limits, input.ip);
    return INVALID;
  }
  return { isValid: true, userName: account.displayName };
}
