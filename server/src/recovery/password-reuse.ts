import { type Account, recentPasswordHashes } from '../accounts/account-repository.ts';
import { verifyPassword } from '../accounts/password-hash.ts';
import type { Db } from '../store/database.ts';

/**
 * DESIGN §2 Reset password: true when `password` matches the current password or one of the last
 * `history` hashes. Each hash is verified, never compared as a string (every hash has its own salt).
 */
export async function reusesRecentPassword(
  db: Db,
  account: Pick<Account, 'id' | 'passwordHash'>,
  password: string,
  history: number,
): Promise<boolean> {
  if (history <= 0) return false;
  const hashes = new Set(await recentPasswordHashes(db, account.id, history));
  // Stryker disable next-line ConditionalExpression: a null in the set is verified against the dummy hash, which never matches
  if (account.passwordHash !== null) hashes.add(account.passwordHash);
  const matches = await Promise.all([...hashes].map((hash) => verifyPassword(hash, password)));
  return matches.includes(true);
}
