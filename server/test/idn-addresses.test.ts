import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { findAccountById, insertAccount } from '../src/accounts/account-repository.ts';
import { rekeyAddresses } from '../src/accounts/address-keys.ts';
import { accounts } from '../src/store/tables/index.ts';
import { apiClient, STRONG } from './recovery-kit.ts';
import { attemptLogin, createAccount, registerTestClient } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/**
 * An address whose domain is not ASCII has two spellings: as typed ("bücher.example") and in IDNA
 * ASCII form ("xn--bcher-kva.example"), which is what a browser's e-mail field sends for the first.
 * Both are one identifier (DESIGN §2, identifiers.ts).
 */

const service = useTestService({
  setUp: async ({ app, db }) => {
    app.mail.start();
    await registerTestClient(db);
  },
});
const db = () => service().db;
let serial = 0;

/** A local part of its own for each test, at a domain spelled with an umlaut. */
function addresses() {
  serial += 1;
  return { unicode: `Ada.${serial}@Bücher.example`, ascii: `ada.${serial}@xn--bcher-kva.example` };
}

const login = (email: string, password: string) => attemptLogin(service().app, email, password);

/** The account's lookup key as an earlier version wrote it: the domain lower-cased, not IDNA ASCII. */
async function keyAsBefore(accountId: string, email: string): Promise<string> {
  const old = email.trim().normalize('NFC').toLowerCase();
  await db().update(accounts).set({ emailNormalized: old }).where(eq(accounts.id, accountId));
  return old;
}

describe('addresses with an internationalised domain', () => {
  it('signs in with either spelling of the domain, whichever the account was created with', async () => {
    const first = addresses();
    await createAccount(db(), first.unicode, STRONG);
    expect((await login(first.ascii, STRONG)).isAuthenticated).toBe(true);
    expect((await login(first.unicode, STRONG)).isAuthenticated).toBe(true);

    const second = addresses();
    await createAccount(db(), second.ascii, STRONG);
    expect((await login(second.unicode, STRONG)).isAuthenticated).toBe(true);
  });

  it('mails the reset link to the address as the account has it, asked for in the other spelling', async () => {
    const { unicode, ascii } = addresses();
    await createAccount(db(), unicode, STRONG);
    const api = await apiClient(service().app);
    const answer = await api.post('/api/forgotpassword', {
      email: ascii,
      returnUrl: null,
      locationSearch: '',
    });
    expect(answer.statusCode).toBe(200);
    expect(await service().mails('password_reset', unicode)).toHaveLength(1);
  });

  it('takes no second account for the other spelling of an address', async () => {
    const { unicode, ascii } = addresses();
    await createAccount(db(), unicode, STRONG);
    expect(await insertAccount(db(), { email: ascii, displayName: 'Ada Again' })).toBeNull();
  });

  it('re-keys an account keyed before, so both spellings find it; a second pass changes nothing', async () => {
    const { unicode, ascii } = addresses();
    const account = await createAccount(db(), unicode, STRONG);
    await keyAsBefore(account.id, unicode);
    // Keyed as before, the spelling a browser sends finds no one.
    expect((await login(ascii, STRONG)).isAuthenticated).toBe(false);

    const done = await rekeyAddresses(db());
    // Nothing else is keyed before in this file but for the length of the clash test, which undoes it.
    expect(done.clashing).toEqual([]);
    expect(done.rekeyed).toBe(1);
    expect((await findAccountById(db(), account.id))?.emailNormalized).toBe(ascii);
    expect((await login(ascii, STRONG)).isAuthenticated).toBe(true);
    expect(await rekeyAddresses(db())).toEqual({ rekeyed: 0, clashing: [] });
  });

  it('re-keys an account once when two instances start together, and neither calls it a clash', async () => {
    const { unicode, ascii } = addresses();
    const account = await createAccount(db(), unicode, STRONG);
    await keyAsBefore(account.id, unicode);
    const [one, two] = await Promise.all([rekeyAddresses(db()), rekeyAddresses(db())]);
    expect(one.rekeyed + two.rekeyed).toBe(1);
    expect([...one.clashing, ...two.clashing]).toEqual([]);
    expect((await findAccountById(db(), account.id))?.emailNormalized).toBe(ascii);
  });

  it('leaves an account keyed before whose new key another account holds, and names it', async () => {
    const { unicode, ascii } = addresses();
    const before = await createAccount(db(), unicode, STRONG);
    const oldKey = await keyAsBefore(before.id, unicode);
    // The same address registered again in the other spelling, while the first was keyed as before.
    const other = await createAccount(db(), ascii, 'Other-Horse-43');

    try {
      expect(await rekeyAddresses(db())).toEqual({ rekeyed: 0, clashing: [before.id] });
      expect((await findAccountById(db(), before.id))?.emailNormalized).toBe(oldKey);
      expect((await findAccountById(db(), other.id))?.emailNormalized).toBe(ascii);
      // Both spellings find the account that holds the key.
      expect((await login(unicode, 'Other-Horse-43')).isAuthenticated).toBe(true);
    } finally {
      // The other tests count what a pass re-keys and names: this pair is this test's alone.
      await db().delete(accounts).where(eq(accounts.id, before.id));
    }
  });
});
