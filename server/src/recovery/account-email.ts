import { emailTaken } from '../accounts/account-repository.ts';
import { normalizeEmail } from '../accounts/identifiers.ts';
import type { Db } from '../store/database.ts';

/** True when no account other than `exceptId` has the address. */
export async function emailIsFree(db: Db, email: string, exceptId?: string): Promise<boolean> {
  return !(await emailTaken(db, normalizeEmail(email), exceptId));
}
