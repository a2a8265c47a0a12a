import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { findAccountById, insertAccount } from '../src/accounts/account-repository.ts';
import { rekeyAddresses } from '../src/accounts/address-keys.ts';
import { normalizeEmail } from '../src/accounts/identifiers.ts';
import { followUpstreamAddress } from '../src/federation/upstream-address.ts';
import { requestEmailChange } from '../src/recovery/request-email-change.ts';
import { databaseClock } from '../src/store/clock.ts';
import { accounts, auditEvents } from '../src/store/tables/index.ts';
import { apiClient, recoveryDeps, STRONG } from './recovery-kit.ts';
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

/** The test database, but every update fails with `error`. */
function failingUpdates(error: Error): ReturnType<typeof db> {
  return Object.create(db(), {
    update: { value: () => ({ set: () => ({ where: () => ({ returning: () => Promise.reject(error) }) }) }) },
  });
}

/** The account's audit rows of a change of address. */
function emailChangesOf(accountId: string) {
  return db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.accountId, accountId), eq(auditEvents.event, 'email_change')));
}

/**
 * Runs `body` with the account keyed as before, and keys it as now afterwards: the tests that
 * count what a pass re-keys find no account keyed before but their own.
 */
async function whileKeyedAsBefore<T>(accountId: string, email: string, body: (oldKey: string) => Promise<T>) {
  const oldKey = await keyAsBefore(accountId, email);
  try {
    return await body(oldKey);
  } finally {
    await db()
      .update(accounts)
      .set({ emailNormalized: normalizeEmail(email) })
      .where(eq(accounts.id, accountId));
  }
}

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

  it('takes the address a provider sends in the other spelling as no change, for an account keyed before too', async () => {
    const { unicode, ascii } = addresses();
    const created = await createAccount(db(), unicode, STRONG);
    await whileKeyedAsBefore(created.id, unicode, async () => {
      const account = await findAccountById(db(), created.id);
      if (!account) throw new Error('no account');
      const kept = await followUpstreamAddress(db(), databaseClock(db()), account, {
        providerId: 'p',
        email: ascii,
      });
      expect(kept).toBe(account);
      expect(await emailChangesOf(account.id)).toEqual([]);
    });
  });

  it('answers a change of address to the other spelling of the same one as unchanged, for an account keyed before too', async () => {
    const deps = recoveryDeps(db());
    const { unicode, ascii } = addresses();
    const account = await createAccount(db(), unicode, STRONG);
    expect(await requestEmailChange(deps, account.id, ascii)).toEqual({ outcome: 'unchanged' });
    await whileKeyedAsBefore(account.id, unicode, async () => {
      expect(await requestEmailChange(deps, account.id, ascii)).toEqual({ outcome: 'unchanged' });
    });
    expect(deps.mail.queued).toHaveLength(0);
  });

  it('starts when an account created that very moment takes the new key first: the unique index refuses the re-key', async () => {
    const { unicode } = addresses();
    const account = await createAccount(db(), unicode, STRONG);
    const violation = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
    });
    await whileKeyedAsBefore(account.id, unicode, async (oldKey) => {
      // The re-key's update meets the unique index; every other statement runs.
      expect(await rekeyAddresses(failingUpdates(violation))).toEqual({ rekeyed: 0, clashing: [] });
      expect((await findAccountById(db(), account.id))?.emailNormalized).toBe(oldKey);
    });
  });

  it('fails the start on any other error of the re-key, as on any other statement', async () => {
    const { unicode } = addresses();
    const account = await createAccount(db(), unicode, STRONG);
    const lost = new Error('Connection terminated unexpectedly');
    await whileKeyedAsBefore(account.id, unicode, async () => {
      await expect(rekeyAddresses(failingUpdates(lost))).rejects.toBe(lost);
    });
  });
});
