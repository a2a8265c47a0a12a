import type { VerificationType } from '@keycard/contract';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { codeHash } from '../codes/codes.ts';
import { type Db, verificationCodes } from '../store/tables/index.ts';

/**
 * Code queries the recovery flows need beyond codes.ts: links that act on load (unlock, new e-mail)
 * stay answerable after their first use, so they read a code in whatever state it is in.
 */

/** Verification types a reset page accepts (SPEC §2 /resetPassword/{type}/{code}). */
export const RESET_TYPES = [1, 2, 6] as const satisfies readonly VerificationType[];

export interface StoredCode {
  id: string;
  accountId: string;
  verificationType: number;
  payload: Record<string, string> | null;
  expiresAt: Date;
  consumedAt: Date | null;
  supersededAt: Date | null;
}

/** The code of one of `types`, spent or not, expired or not; null when there is none. */
export async function findStoredCode(
  db: Db,
  code: string,
  types: readonly VerificationType[],
): Promise<StoredCode | null> {
  const [row] = await db
    .select({
      id: verificationCodes.id,
      accountId: verificationCodes.accountId,
      verificationType: verificationCodes.verificationType,
      payload: verificationCodes.payload,
      expiresAt: verificationCodes.expiresAt,
      consumedAt: verificationCodes.consumedAt,
      supersededAt: verificationCodes.supersededAt,
    })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.codeHash, codeHash(code)),
        inArray(verificationCodes.verificationType, [...types]),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Marks the code used; true for exactly one caller, the first (one statement, so races agree). */
export async function claimFirstUse(db: Db, id: string, now: Date): Promise<boolean> {
  const claimed = await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id });
  return claimed.length === 1;
}

/** Spends every other unspent reset-type code of the account, so no older link still works. */
export async function spendResetCodes(db: Db, accountId: string, now: Date): Promise<void> {
  await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(
      and(
        eq(verificationCodes.accountId, accountId),
        inArray(verificationCodes.verificationType, [...RESET_TYPES]),
        isNull(verificationCodes.consumedAt),
      ),
    );
}
