import { emailTaken, replaceEmail } from '../accounts/account-repository.ts';
import { normalizeEmail } from '../accounts/identifiers.ts';
import type { Db } from '../store/database.ts';

/** The address as it is stored: trimmed and NFC, letter case kept (account-repository.ts). */
export function storedEmailForm(email: string): string {
  return email.trim().normalize('NFC');
}

/** True when no account other than `exceptId` has the address. */
export async function emailIsFree(db: Db, email: string, exceptId?: string): Promise<boolean> {
  return !(await emailTaken(db, normalizeEmail(email), exceptId));
}

/** Swaps the account's address unless another account has it (one statement); false when it was taken. */
export function swapEmail(db: Db, accountId: string, newEmail: string): Promise<boolean> {
  return replaceEmail(db, accountId, {
    email: storedEmailForm(newEmail),
    emailNormalized: normalizeEmail(newEmail),
  });
}
