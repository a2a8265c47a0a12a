import { desc, eq, sql } from 'drizzle-orm';
import { accounts, type Db, passwordHistory } from '../store/tables/index.ts';
import { normalizeEmail } from './identifiers.ts';

export type Account = typeof accounts.$inferSelect;

export async function findAccountByEmail(db: Db, email: string): Promise<Account | null> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(eq(accounts.emailNormalized, normalizeEmail(email)))
    .limit(1);
  return row ?? null;
}

export async function findAccountById(db: Db, id: string): Promise<Account | null> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id)).limit(1);
  return row ?? null;
}

export interface NewAccount {
  email: string;
  displayName: string;
  locale?: string | null;
}

/** First word of the display name; used in captions that greet by first name (SPEC §4). */
export function firstNameOf(displayName: string): string {
  return displayName.trim().split(/\s+/)[0] ?? displayName.trim();
}

/** Creates an account without a password; null when the address is taken. */
export async function insertAccount(db: Db, input: NewAccount): Promise<Account | null> {
  const [row] = await db
    .insert(accounts)
    .values({
      email: input.email.trim().normalize('NFC'),
      emailNormalized: normalizeEmail(input.email),
      displayName: input.displayName.trim(),
      firstName: firstNameOf(input.displayName),
      locale: input.locale ?? null,
    })
    .onConflictDoNothing({ target: accounts.emailNormalized })
    .returning();
  return row ?? null;
}

/** Sets a new password hash, records it in the history and clears a forced change. */
export async function storePassword(
  db: Db,
  accountId: string,
  passwordHash: string,
  at: Date,
): Promise<void> {
  await db
    .update(accounts)
    .set({ passwordHash, passwordChangedAt: at, mustChangePassword: false, updatedAt: at })
    .where(eq(accounts.id, accountId));
  await db.insert(passwordHistory).values({ accountId, passwordHash, createdAt: at });
}

/** Swaps the stored hash for one with today's parameters; history and age are unchanged. */
export async function replaceHash(db: Db, accountId: string, passwordHash: string): Promise<void> {
  await db.update(accounts).set({ passwordHash }).where(eq(accounts.id, accountId));
}

/** The most recent `limit` password hashes, newest first. */
export async function recentPasswordHashes(db: Db, accountId: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ hash: passwordHistory.passwordHash })
    .from(passwordHistory)
    .where(eq(passwordHistory.accountId, accountId))
    .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id))
    .limit(limit);
  return rows.map((row) => row.hash);
}

export async function setDisabled(db: Db, accountId: string, disabled: boolean): Promise<void> {
  await db
    .update(accounts)
    .set({ disabledAt: disabled ? sql`now()` : null, updatedAt: sql`now()` })
    .where(eq(accounts.id, accountId));
}

export async function setMustChangePassword(db: Db, accountId: string): Promise<void> {
  await db
    .update(accounts)
    .set({ mustChangePassword: true, updatedAt: sql`now()` })
    .where(eq(accounts.id, accountId));
}
