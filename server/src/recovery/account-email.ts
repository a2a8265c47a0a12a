import { and, eq, ne, notExists, sql } from 'drizzle-orm';
import { normalizeEmail } from '../accounts/identifiers.ts';
import { accounts, type Db } from '../store/tables/index.ts';

/** The address as it is stored: trimmed and NFC, letter case kept (account-repository.ts). */
export function storedEmailForm(email: string): string {
  return email.trim().normalize('NFC');
}

/** True when no account other than `exceptId` has the address. */
export async function emailIsFree(db: Db, email: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      and(
        eq(accounts.emailNormalized, normalizeEmail(email)),
        exceptId === undefined ? undefined : ne(accounts.id, exceptId),
      ),
    )
    .limit(1);
  return row === undefined;
}

/**
 * Swaps the account's address unless another account has it; false when it was taken. The check and
 * the update are one statement, and the unique index settles any race with a new account.
 */
export async function swapEmail(db: Db, accountId: string, newEmail: string): Promise<boolean> {
  const taken = db
    .select({ one: sql`1` })
    .from(accounts)
    .where(and(eq(accounts.emailNormalized, normalizeEmail(newEmail)), ne(accounts.id, accountId)));
  const swapped = await db
    .update(accounts)
    .set({
      email: storedEmailForm(newEmail),
      emailNormalized: normalizeEmail(newEmail),
      updatedAt: sql`now()`,
    })
    .where(and(eq(accounts.id, accountId), notExists(taken)))
    .returning({ id: accounts.id });
  return swapped.length === 1;
}
