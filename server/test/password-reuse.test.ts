import { describe, expect, it } from 'vitest';
import { findAccountById, storePassword } from '../src/accounts/account-repository.ts';
import { hashPassword } from '../src/accounts/password-hash.ts';
import { reusesRecentPassword } from '../src/recovery/password-reuse.ts';
import { useTestDatabase } from './support/database.ts';
import { createAccount } from './support/oidc-flow.ts';

/**
 * DESIGN §2 Reset password: a new password may not be the current one nor one of the last
 * PASSWORD_HISTORY ones; a history of 0 turns the rule off. Each case writes its history depth.
 */
const testDb = useTestDatabase();
let serial = 0;
const T0 = new Date('2026-03-01T08:00:00Z');
const later = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

async function accountWithPasswords(...passwords: string[]) {
  const { db } = testDb();
  const account = await createAccount(db, `reuse-${++serial}@example.com`, null);
  for (const [index, password] of passwords.entries()) {
    await storePassword(db, account.id, await hashPassword(password), later(index));
  }
  const stored = await findAccountById(db, account.id);
  if (!stored) throw new Error('the account was not stored');
  return stored;
}

describe('reusing a recent password', () => {
  it('with a history of 2, the last two passwords are refused and the one before is not', async () => {
    const account = await accountWithPasswords('Oldest-Pass-1', 'Middle-Pass-2', 'Newest-Pass-3');
    const { db } = testDb();
    expect(await reusesRecentPassword(db, account, 'Newest-Pass-3', 2)).toBe(true);
    expect(await reusesRecentPassword(db, account, 'Middle-Pass-2', 2)).toBe(true);
    expect(await reusesRecentPassword(db, account, 'Oldest-Pass-1', 2)).toBe(false);
    expect(await reusesRecentPassword(db, account, 'Never-Used-4', 2)).toBe(false);
  });

  it('a history of 0 turns the rule off, even for the current password', async () => {
    const account = await accountWithPasswords('Current-Pass-1');
    expect(await reusesRecentPassword(testDb().db, account, 'Current-Pass-1', 0)).toBe(false);
  });

  it('the current password counts even when the history holds no row of it', async () => {
    const { db } = testDb();
    const account = await accountWithPasswords();
    const current = { ...account, passwordHash: await hashPassword('Set-Elsewhere-5') };
    expect(await reusesRecentPassword(db, current, 'Set-Elsewhere-5', 1)).toBe(true);
    expect(await reusesRecentPassword(db, current, 'Other-Pass-6', 1)).toBe(false);
  });

  it('an account without a password refuses nothing for it', async () => {
    const account = await accountWithPasswords();
    expect(account.passwordHash).toBeNull();
    expect(await reusesRecentPassword(testDb().db, account, 'Any-Pass-7', 5)).toBe(false);
  });
});
