import { and, eq, sql } from 'drizzle-orm';
import type { AdapterPayload, KoaContextWithOIDC } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { findAccountById, setDisabled, storePassword } from '../src/accounts/account-repository.ts';
import { endAccountSessionsWithLogout } from '../src/oidc/logout.ts';
import { withRequestReads } from '../src/oidc/request-reads.ts';
import { boundLoginResult, forgetOutdatedSignIn } from '../src/oidc/sign-in-result.ts';
import { databaseAdapter } from '../src/oidc/storage-adapter.ts';
import { manualClock } from '../src/store/clock.ts';
import type { Db } from '../src/store/database.ts';
import { oidcPayloads } from '../src/store/tables/index.ts';
import { testConfig } from './support/app.ts';
import {
  CLIENT_ID,
  createAccount,
  redeemCode,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { againstOpenTransaction } from './support/open-transaction.ts';
import { useTestService } from './support/test-service.ts';

// DESIGN §2: a reset (and a disable or a deletion) ends all sessions of the account. A protocol
// request that read the browser's session or a grant before that and saves it after it (oidc-provider
// saves the session at the end of every authorization request, and the first-party grant with it)
// must not write the rows back: the session would sign the browser in again, and the code it issues
// would name a live grant. Here the request's reads and saves go through the provider's storage
// adapter, as oidc-provider makes them, with the ending committed in between.

const service = useTestService({
  setUp: async ({ db }) => {
    await registerTestClient(db);
  },
});
const db = () => service().db;
const clock = manualClock(new Date());
/** The provider's storage on the service's database, as a protocol request uses it. */
const adapter = (model: string) =>
  new (databaseAdapter(db(), clock, { sessionLifetimes: testConfig().sessionLifetimes }))(model);

let serial = 0;

/** A person signed in through the relying party: a session and a grant of their account are stored. */
async function signedIn() {
  serial += 1;
  const email = `kept-out-${serial}@example.com`;
  const account = await createAccount(db(), email, 'Correct-Horse-42', 'Ada Lovelace');
  const browser = new TestBrowser(service().app);
  const auth = await startAuthorization(browser);
  await browser.loadSpa();
  await browser.post('/api/login', {
    Username: email,
    Password: 'Correct-Horse-42',
    ReturnUrl: auth.returnUrl,
  });
  await redeemCode(service().app, await resumeToCode(browser, auth.returnUrl), auth.verifier);
  const idOf = async (model: string) => {
    const [row] = await db()
      .select({ id: oidcPayloads.id })
      .from(oidcPayloads)
      .where(and(eq(oidcPayloads.type, model), sql`${oidcPayloads.payload}->>'accountId' = ${account.id}`));
    if (!row) throw new Error(`no ${model} of the account`);
    return row.id;
  };
  return { account, browser, sessionId: await idOf('Session'), grantId: await idOf('Grant') };
}

/** The payload `id` as the adapter finds it; there must be one. */
async function found(models: ReturnType<typeof adapter>, id: string): Promise<AdapterPayload> {
  const payload = await models.find(id);
  if (!payload) throw new Error(`${id} is not stored`);
  return payload;
}

async function stored(model: string, id: string) {
  const rows = await db()
    .select({ payload: oidcPayloads.payload })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.type, model), eq(oidcPayloads.id, id)));
  return rows[0]?.payload as AdapterPayload | undefined;
}

describe('a session or grant read before an account’s sign-ins ended', () => {
  it('is not written back by the request that read it, and the browser must sign in again', async () => {
    const { account, browser, sessionId, grantId } = await signedIn();
    await withRequestReads(async () => {
      const sessions = adapter('Session');
      const grants = adapter('Grant');
      const session = await sessions.find(sessionId);
      const grant = await grants.find(grantId);
      if (!session || !grant) throw new Error('the sign-in stored no session or grant');
      // The reset commits while the request is between its read and its save.
      await endAccountSessionsWithLogout(db(), clock, account.id);
      await sessions.upsert(sessionId, { ...session, loginTs: session.loginTs }, 3600);
      await grants.upsert(grantId, grant, 3600);
    });
    expect(await stored('Session', sessionId)).toBeUndefined();
    expect(await stored('Grant', grantId)).toBeUndefined();
    const silent = await startAuthorization(browser, { prompt: 'none' }).catch(
      (error: Error) => error.message,
    );
    expect(String(silent)).toMatch(/error=login_required/);
  });

  it('is not written back under the new id a resume gives it, nor by a later save of the request', async () => {
    const { account, sessionId } = await signedIn();
    await withRequestReads(async () => {
      const sessions = adapter('Session');
      const session = await found(sessions, sessionId);
      await endAccountSessionsWithLogout(db(), clock, account.id);
      // What oidc-provider's resetIdentifier and save do: the old id destroyed, the session saved anew.
      await sessions.destroy(sessionId);
      await sessions.upsert('renewed-session', { ...session, jti: 'renewed-session' }, 3600);
      await sessions.upsert('renewed-session', { ...session, jti: 'renewed-session', acr: 'again' }, 3600);
    });
    expect(await stored('Session', 'renewed-session')).toBeUndefined();
    expect(await stored('Session', sessionId)).toBeUndefined();
  });

  it('is not written under another id once its own save found it gone', async () => {
    const { account, sessionId } = await signedIn();
    await withRequestReads(async () => {
      const sessions = adapter('Session');
      const session = await found(sessions, sessionId);
      await endAccountSessionsWithLogout(db(), clock, account.id);
      await sessions.upsert(sessionId, session, 3600);
      await sessions.upsert('another-session', { ...session, jti: 'another-session' }, 3600);
    });
    expect(await stored('Session', sessionId)).toBeUndefined();
    expect(await stored('Session', 'another-session')).toBeUndefined();
  });

  it('is not written back when the request found it by its uid, as a token request does', async () => {
    const { account, sessionId } = await signedIn();
    const uid = String((await stored('Session', sessionId))?.uid);
    await withRequestReads(async () => {
      const sessions = adapter('Session');
      const session = await sessions.findByUid(uid);
      if (!session) throw new Error('no session');
      await endAccountSessionsWithLogout(db(), clock, account.id);
      await sessions.upsert(sessionId, session, 3600);
    });
    expect(await stored('Session', sessionId)).toBeUndefined();
  });

  it('is stored again when the request itself removed it and saves it anew', async () => {
    const { sessionId } = await signedIn();
    await withRequestReads(async () => {
      const sessions = adapter('Session');
      const session = await found(sessions, sessionId);
      await sessions.destroy(sessionId);
      await sessions.upsert(sessionId, { ...session, acr: 'anew' }, 3600);
    });
    expect(await stored('Session', sessionId)).toMatchObject({ acr: 'anew' });
  });

  it('is renewed under a new id by a resume while the sign-in lasts', async () => {
    const { sessionId } = await signedIn();
    await withRequestReads(async () => {
      const sessions = adapter('Session');
      const session = await found(sessions, sessionId);
      await sessions.destroy(sessionId);
      await sessions.upsert(`${sessionId}-renewed`, { ...session, jti: `${sessionId}-renewed` }, 3600);
    });
    expect(await stored('Session', sessionId)).toBeUndefined();
    expect(await stored('Session', `${sessionId}-renewed`)).toBeDefined();
  });

  it('is written as changed by the request that read it while the sign-in lasts', async () => {
    const { sessionId } = await signedIn();
    await withRequestReads(async () => {
      const sessions = adapter('Session');
      const session = await found(sessions, sessionId);
      await sessions.upsert(sessionId, { ...session, acr: 'changed' }, 3600);
      // A session the request saves besides is stored too: nothing was ended under it.
      await sessions.upsert(`${sessionId}-beside`, { ...session, jti: `${sessionId}-beside` }, 3600);
    });
    expect(await stored('Session', sessionId)).toMatchObject({ acr: 'changed' });
    expect(await stored('Session', `${sessionId}-beside`)).toBeDefined();
  });

  it('outside a protocol request (a job, the admin CLI) is read and written as stored, nothing noted', async () => {
    const { sessionId } = await signedIn();
    const sessions = adapter('Session');
    const session = await found(sessions, sessionId);
    await sessions.upsert(sessionId, { ...session, acr: 'outside' }, 3600);
    await sessions.destroy('no-such-session');
    await sessions.upsert('outside-session', { ...session, jti: 'outside-session' }, 3600);
    expect(await stored('Session', sessionId)).toMatchObject({ acr: 'outside' });
    expect(await stored('Session', 'outside-session')).toBeDefined();
  });

  it('a session no request read is stored when saved: a new sign-in starts one', async () => {
    await withRequestReads(() =>
      adapter('Session').upsert(
        'a-new-session',
        { kind: 'Session', jti: 'a-new-session', uid: 'u-new' },
        3600,
      ),
    );
    expect(await stored('Session', 'a-new-session')).toMatchObject({ uid: 'u-new' });
  });
});

describe('a resume that an account’s sign-ins ending overtakes', () => {
  /** What a resume checks first (findAccount): the sign-in's result, bound to the password then. */
  async function resumeChecked(accountId: string): Promise<void> {
    const account = await findAccountById(db(), accountId);
    if (!account) throw new Error('no account');
    const ctx = {
      oidc: { entities: { Interaction: { result: boundLoginResult(account, ['pwd']) } }, session: {} },
    } as unknown as KoaContextWithOIDC;
    expect(forgetOutdatedSignIn(ctx, account)).toBe(false);
  }

  /** A reset in `tx`: the new password stored and the account's sessions ended, as resetPassword does. */
  async function resetIn(tx: Db, accountId: string): Promise<void> {
    await storePassword(tx, accountId, 'a-new-hash', new Date(Date.now() + 1000));
    await endAccountSessionsWithLogout(tx, clock, accountId);
  }

  /** What a sign-in's authorization request creates: a grant, and a code with offline_access under it. */
  async function grantAndCode(accountId: string, name: string): Promise<void> {
    const grant = `grant-${name}`;
    await adapter('Grant').upsert(grant, { kind: 'Grant', jti: grant, accountId, clientId: CLIENT_ID }, 3600);
    await adapter('AuthorizationCode').upsert(
      `code-${name}`,
      {
        kind: 'AuthorizationCode',
        jti: `code-${name}`,
        accountId,
        grantId: grant,
        scope: 'openid offline_access',
      },
      60,
    );
  }

  /** The resume's writes, in oidc-provider's order: the grant, a code with offline_access, the new session. */
  async function resumeWrites(accountId: string, name: string): Promise<void> {
    await grantAndCode(accountId, name);
    await adapter('Session').upsert(
      `session-${name}`,
      { kind: 'Session', jti: `session-${name}`, uid: `uid-${name}`, accountId, loginTs: 1 },
      3600,
    );
  }

  /**
   * Runs `save` in a request that found the browser's session, whose account's sign-ins then ended,
   * and which went on to create a grant and a code (`name`).
   */
  async function afterSessionEnded(
    save: (sessions: ReturnType<typeof adapter>, session: AdapterPayload, sessionId: string) => Promise<void>,
    name: string,
  ): Promise<string> {
    const { account, sessionId } = await signedIn();
    await withRequestReads(async () => {
      const sessions = adapter('Session');
      const session = await found(sessions, sessionId);
      await endAccountSessionsWithLogout(db(), clock, account.id);
      await grantAndCode(account.id, name);
      await save(sessions, session, sessionId);
    });
    return sessionId;
  }

  async function storedOf(name: string) {
    return {
      session: await stored('Session', `session-${name}`),
      grant: await stored('Grant', `grant-${name}`),
      code: await stored('AuthorizationCode', `code-${name}`),
    };
  }

  it('writes its session, grant and code when nothing ended', async () => {
    const account = await createAccount(db(), 'resume-kept@example.com', 'Correct-Horse-42');
    await withRequestReads(async () => {
      await resumeChecked(account.id);
      await resumeWrites(account.id, 'kept');
    });
    const kept = await storedOf('kept');
    expect([kept.session, kept.grant, kept.code].every(Boolean)).toBe(true);
  });

  it('leaves none of them once a reset committed between its check and its writes', async () => {
    const account = await createAccount(db(), 'resume-after@example.com', 'Correct-Horse-42');
    await withRequestReads(async () => {
      await resumeChecked(account.id);
      await db().transaction((tx) => resetIn(tx, account.id));
      await resumeWrites(account.id, 'after');
    });
    // The code, with offline_access, is bound to no session: it would have outlived the reset.
    expect(await storedOf('after')).toEqual({ session: undefined, grant: undefined, code: undefined });
  });

  it('leaves none of them when a reset holding the account commits while it writes', async () => {
    const account = await createAccount(db(), 'resume-during@example.com', 'Correct-Horse-42');
    await withRequestReads(async () => {
      await resumeChecked(account.id);
      // The reset has ended the sessions (none of this sign-in yet) and holds the account's row.
      await againstOpenTransaction(
        db(),
        (tx) => resetIn(tx, account.id),
        () => resumeWrites(account.id, 'during'),
      );
    });
    expect(await storedOf('during')).toEqual({ session: undefined, grant: undefined, code: undefined });
  });

  it('leaves no grant or code once its session was found ended, a code with offline_access included', async () => {
    // A resume: the old id's delete finds nothing, and the session is not written under the new one.
    await afterSessionEnded(async (sessions, session, sessionId) => {
      await sessions.destroy(sessionId);
      await sessions.upsert('renewed-found', { ...session, jti: 'renewed-found' }, 3600);
    }, 'found');
    expect(await storedOf('found')).toEqual({ session: undefined, grant: undefined, code: undefined });
    expect(await stored('Session', 'renewed-found')).toBeUndefined();
  });

  it('leaves none of them when the account was disabled and enabled again between its check and its writes', async () => {
    const account = await createAccount(db(), 'resume-toggled@example.com', 'Correct-Horse-42');
    await withRequestReads(async () => {
      await resumeChecked(account.id);
      // The password is as it was, but the disable ended the account's sessions.
      await db().transaction(async (tx) => {
        await setDisabled(tx, account.id, true);
        await endAccountSessionsWithLogout(tx, clock, account.id);
      });
      await db().transaction((tx) => setDisabled(tx, account.id, false));
      await resumeWrites(account.id, 'toggled');
    });
    expect(await storedOf('toggled')).toEqual({ session: undefined, grant: undefined, code: undefined });
  });

  it('leaves no grant it created once the save of the session it found wrote nothing', async () => {
    const sessionId = await afterSessionEnded(
      (sessions, session, id) => sessions.upsert(id, { ...session, acr: 'again' }, 3600),
      'saved',
    );
    expect(await storedOf('saved')).toEqual({ session: undefined, grant: undefined, code: undefined });
    expect(await stored('Session', sessionId)).toBeUndefined();
  });

  it('keeps a grant it found when the session it found was renewed by another request meanwhile', async () => {
    // A resume in another tab gives the session a new id; this request (a silent renewal) saves the
    // client's existing grant, then finds its session's old id gone. The grant is still the browser's.
    const { sessionId, grantId } = await signedIn();
    await withRequestReads(async () => {
      const sessions = adapter('Session');
      const grants = adapter('Grant');
      const session = await found(sessions, sessionId);
      const grant = await found(grants, grantId);
      await withRequestReads(async () => {
        const other = adapter('Session');
        await found(other, sessionId);
        await other.destroy(sessionId);
        await other.upsert(`${sessionId}-other-tab`, { ...session, jti: `${sessionId}-other-tab` }, 3600);
      });
      await grants.upsert(grantId, grant, 3600);
      await sessions.upsert(sessionId, session, 3600);
    });
    expect(await stored('Grant', grantId)).toBeDefined();
    expect(await stored('Session', `${sessionId}-other-tab`)).toBeDefined();
  });
});
