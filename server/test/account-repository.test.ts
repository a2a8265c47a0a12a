import { describe, expect, it } from 'vitest';
import {
  deleteAccount,
  emailTaken,
  findAccountById,
  firstNameOf,
  insertAccount,
} from '../src/accounts/account-repository.ts';
import { useTestDatabase } from './support/database.ts';

const testDb = useTestDatabase();
let serial = 0;

function address(prefix: string): string {
  serial += 1;
  return `${prefix}-${serial}@example.com`;
}

describe('accounts as they are stored (DESIGN §2: identifiers trimmed, NFC, case kept for display)', () => {
  it('greets by the first word of the display name, whatever the spacing', () => {
    expect(firstNameOf('Ada Lovelace')).toBe('Ada');
    expect(firstNameOf('  Grace \t Brewster\nHopper ')).toBe('Grace');
    expect(firstNameOf('Cher')).toBe('Cher');
  });

  it('stores the address trimmed and composed with its case kept, the name trimmed, and the language', async () => {
    const local = `Jose\u0301-${++serial}`;
    const account = await insertAccount(testDb().db, {
      email: `  ${local}@Example.COM `,
      displayName: '  José Álvarez ',
      locale: 'de',
    });
    const composed = `Jos\u00e9-${serial}`;
    expect(account).toMatchObject({
      email: `${composed}@Example.COM`,
      emailNormalized: `${composed.toLowerCase()}@example.com`,
      displayName: 'José Álvarez',
      firstName: 'José',
      locale: 'de',
    });
    expect(await findAccountById(testDb().db, account?.id ?? '')).toMatchObject({ locale: 'de' });
    const plain = await insertAccount(testDb().db, { email: address('plain'), displayName: 'Ada' });
    expect(plain?.locale).toBeNull();
  });

  it('creates no second account for another spelling of a taken address', async () => {
    const email = address('Taken');
    expect(await insertAccount(testDb().db, { email, displayName: 'Ada' })).not.toBeNull();
    expect(
      await insertAccount(testDb().db, { email: ` ${email.toUpperCase()}`, displayName: 'Eve' }),
    ).toBeNull();
  });

  it('tells whether another account has an address', async () => {
    const own = await insertAccount(testDb().db, { email: address('own'), displayName: 'Ada' });
    const other = await insertAccount(testDb().db, { email: address('other'), displayName: 'Grace' });
    if (!own || !other) throw new Error('accounts not created');
    expect(await emailTaken(testDb().db, own.emailNormalized)).toBe(true);
    expect(await emailTaken(testDb().db, own.emailNormalized, own.id)).toBe(false);
    expect(await emailTaken(testDb().db, other.emailNormalized, own.id)).toBe(true);
    expect(await emailTaken(testDb().db, address('nobody'), own.id)).toBe(false);
  });

  it('deletes an account once, answering false when it was already gone', async () => {
    const account = await insertAccount(testDb().db, { email: address('deleted'), displayName: 'Ada' });
    expect(await deleteAccount(testDb().db, account?.id ?? '')).toBe(true);
    expect(await findAccountById(testDb().db, account?.id ?? '')).toBeNull();
    expect(await deleteAccount(testDb().db, account?.id ?? '')).toBe(false);
  });
});
