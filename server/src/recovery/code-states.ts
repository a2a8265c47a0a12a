import type { VerificationType } from '@keycard/contract';
import { findCodeByHash, type StoredCode, spendCodes } from '../codes/code-repository.ts';
import { codeHash } from '../codes/codes.ts';
import type { Db } from '../store/database.ts';

/**
 * Code reads the recovery flows need beyond codes.ts: links that act on load (unlock, new e-mail)
 * stay answerable after their first use, so they read a code in whatever state it is in.
 */

/** Verification types a reset page accepts (SPEC §2 /resetPassword/{type}/{code}). */
export const RESET_TYPES = [1, 2, 6] as const satisfies readonly VerificationType[];

/** The code of one of `types`, spent or not, expired or not; null when there is none. */
export function findStoredCode(
  db: Db,
  code: string,
  types: readonly VerificationType[],
): Promise<StoredCode | null> {
  return findCodeByHash(db, codeHash(code), types);
}

/** Spends every other unspent reset-type code of the account, so no older link still works. */
export function spendResetCodes(db: Db, accountId: string, now: Date): Promise<void> {
  return spendCodes(db, accountId, RESET_TYPES, now);
}
