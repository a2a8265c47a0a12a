import * as oidc from 'openid-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { issueCode } from '../src/codes/codes.ts';
import { addClient, updateClient } from '../src/provisioning/client-operations.ts';
import type { AddClientInput } from '../src/provisioning/client-schemas.ts';
import { disableUser } from '../src/provisioning/user-operations.ts';
import { clockReading, databaseClock } from '../src/store/clock.ts';
import { adminEvents } from './admin-api-kit.ts';
import { apiClient } from './recovery-kit.ts';
import { testConfig } from './support/app.ts';
import { createAccount, TestBrowser } from './support/oidc-flow.ts';
import {
  authorizeInBrowser,
  callbackOf,
  codeFlow,
  ISSUER,
  type Person,
  relyingParty,
  signInWith,
} from './support/relying-party.ts';
import { useTestService } from './support/test-service.ts';

/**
 * Refresh tokens (offline_access) through openid-client: rotation on every use, reuse revoking the
 * grant, the idle and absolute lifetimes (set here to 3 and 7 days, stated literally below), and the
 * end of every refresh token of an account at a password reset and an admin disable. oidc-provider
 * reads the time from Date, so days pass by setting this process's Date; the app's clock reads it too.
 */

const PASSWORD = 'Refresh-Rules-2024!';
const SECRET = 'refresh-secret-0123456789abcdefghijklmn';
const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;
const APP = { id: 'notes', redirect: 'https://notes.example/cb' };
const SERVER = { id: 'ledger', redirect: 'https://ledger.example/cb' };
const PLAIN = { id: 'plain', redirect: 'https://plain.example/cb' };
const TURNED = { id: 'turned', redirect: 'https://turned.example/cb' };
const BARE = { id: 'bare', redirect: 'https://bare.example/cb' };
const OFFLINE = 'openid email offline_access';
let serial = 0;

const service = useTestService({
  env: { REFRESH_TOKEN_IDLE_DAYS: '3', REFRESH_TOKEN_ABSOLUTE_DAYS: '7' },
  clock: clockReading(() => Date.now()),
  setUp: async ({ db }) => {
    const offline: Pick<AddClientInput, 'grantTypes' | 'scopes'> = {
      grantTypes: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'email', 'offline_access'],
    };
    await addClient({ db }, { id: APP.id, name: 'Notes', redirectUris: [APP.redirect], ...offline });
    await addClient(
      { db },
      { id: SERVER.id, name: 'Ledger', redirectUris: [SERVER.redirect], secret: SECRET, ...offline },
    );
    await addClient({ db }, { id: PLAIN.id, name: 'Plain', redirectUris: [PLAIN.redirect] });
    await addClient(
      { db },
      { id: TURNED.id, name: 'Turned', redirectUris: [TURNED.redirect], secret: SECRET, ...offline },
    );
    await addClient({ db }, { id: BARE.id, name: 'Bare', redirectUris: [BARE.redirect], secret: SECRET });
  },
});
const app = () => service().app;
const db = () => service().db;

afterEach(() => {
  vi.useRealTimers();
});

async function person(): Promise<Person & { id: string }> {
  serial += 1;
  const account = await createAccount(db(), `refresh-${serial}@example.com`, PASSWORD);
  return { id: account.id, email: account.email, password: PASSWORD };
}

/** The public client's relying party, signed in with offline_access: its refresh token. */
async function publicSignIn(who: Person) {
  const config = await relyingParty(app(), APP.id);
  const tokens = await signInWith(app(), config, who, { redirectUri: APP.redirect, scope: OFFLINE });
  if (!tokens.refresh_token) throw new Error('no refresh token');
  return { config, refreshToken: tokens.refresh_token };
}

/** The provider's error for a refused refresh, or 'ok' with the new refresh token. */
async function refresh(config: oidc.Configuration, token: string) {
  try {
    const tokens = await oidc.refreshTokenGrant(config, token);
    return { outcome: 'ok' as const, refreshToken: tokens.refresh_token ?? '', tokens };
  } catch (error) {
    if (error instanceof oidc.ResponseBodyError) return { outcome: error.error, refreshToken: '' };
    throw error;
  }
}

describe('refresh tokens: offline_access for the clients registered for it', () => {
  it('gives a public client (PKCE) a refresh token that returns a new ID token of the same person', async () => {
    const who = await person();
    const { config, refreshToken } = await publicSignIn(who);
    const refreshed = await refresh(config, refreshToken);
    expect(refreshed.outcome).toBe('ok');
    expect(refreshed.tokens?.claims()).toMatchObject({ sub: who.id, email: who.email, aud: APP.id });
  });

  it('gives a confidential client (client_secret_basic) one too', async () => {
    const who = await person();
    const config = await relyingParty(app(), SERVER.id, oidc.ClientSecretBasic(SECRET));
    const tokens = await signInWith(app(), config, who, { redirectUri: SERVER.redirect, scope: OFFLINE });
    expect(tokens.refresh_token).toBeTruthy();
    expect((await refresh(config, tokens.refresh_token ?? '')).outcome).toBe('ok');
  });

  it('gives none to a client registered without offline_access, which is refused that scope', async () => {
    const who = await person();
    const config = await relyingParty(app(), PLAIN.id);
    const tokens = await signInWith(app(), config, who, {
      redirectUri: PLAIN.redirect,
      scope: 'openid email',
    });
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.refresh_token).toBeUndefined();
    const asked = await signInWith(app(), config, who, { redirectUri: PLAIN.redirect, scope: OFFLINE });
    expect(asked.refresh_token).toBeUndefined();
  });
});

describe('refresh tokens: rotation and reuse', () => {
  it('replaces the token on every use; the replaced one used again revokes the whole grant', async () => {
    const who = await person();
    const { config, refreshToken: first } = await publicSignIn(who);
    const second = await refresh(config, first);
    expect(second.outcome).toBe('ok');
    expect(second.refreshToken).not.toBe(first);
    const third = await refresh(config, second.refreshToken);
    expect(third.outcome).toBe('ok');

    expect((await refresh(config, first)).outcome).toBe('invalid_grant');
    // The reuse ended the grant: the newest token, and the access token issued with it, are dead too.
    expect((await refresh(config, third.refreshToken)).outcome).toBe('invalid_grant');
    await expect(
      oidc.fetchUserInfo(config, third.tokens?.access_token ?? '', oidc.skipSubjectCheck),
    ).rejects.toThrow();
  });
});

describe('refresh tokens: 3 days idle, 7 days from the sign-in', () => {
  it('works 3 days minus a second unused, and is refused 3 days plus a second unused', async () => {
    const start = Math.floor(Date.now() / SECOND) * SECOND;
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const early = await publicSignIn(await person());
    const late = await publicSignIn(await person());
    vi.setSystemTime(start + 3 * DAY - SECOND);
    expect((await refresh(early.config, early.refreshToken)).outcome).toBe('ok');
    vi.setSystemTime(start + 3 * DAY + SECOND);
    expect((await refresh(late.config, late.refreshToken)).outcome).toBe('invalid_grant');
  });

  it('each use starts a new idle period, but none lasts past 7 days from the sign-in', async () => {
    const start = Math.floor(Date.now() / SECOND) * SECOND;
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const signedIn = await publicSignIn(await person());
    let token = signedIn.refreshToken;
    for (const day of [2, 4, 6]) {
      vi.setSystemTime(start + day * DAY);
      const used = await refresh(signedIn.config, token);
      expect(used.outcome).toBe('ok');
      token = used.refreshToken;
    }
    vi.setSystemTime(start + 7 * DAY - SECOND);
    const last = await refresh(signedIn.config, token);
    expect(last.outcome).toBe('ok');
    vi.setSystemTime(start + 7 * DAY + SECOND);
    expect((await refresh(signedIn.config, last.refreshToken)).outcome).toBe('invalid_grant');
  });
});

describe('refresh tokens end with the password and with the account', () => {
  it('a password reset ends every refresh token of the account', async () => {
    const who = await person();
    const one = await publicSignIn(who);
    const other = await publicSignIn(who);
    const code = await issueCode(db(), databaseClock(db()), testConfig().codeLifetimes, {
      accountId: who.id,
      type: 1,
    });
    const api = await apiClient(app());
    const reset = await api.post('/api/ResetPassword', {
      verificationCode: code,
      verificationType: 1,
      newPassword: 'Another-Secret-99!',
      redirectUrl: null,
    });
    expect(reset.json()).toMatchObject({ success: true });
    expect((await refresh(one.config, one.refreshToken)).outcome).toBe('invalid_grant');
    expect((await refresh(other.config, other.refreshToken)).outcome).toBe('invalid_grant');
  });

  it('an admin disable ends every refresh token of the account', async () => {
    const who = await person();
    const signedIn = await publicSignIn(who);
    await disableUser({ db: db() }, { email: who.email });
    expect((await refresh(signedIn.config, signedIn.refreshToken)).outcome).toBe('invalid_grant');
  });

  it('a confidential client made public loses the refresh tokens it got while it authenticated; a new secret keeps them', async () => {
    const who = await person();
    const confidential = await relyingParty(app(), TURNED.id, oidc.ClientSecretBasic(SECRET));
    const first = await signInWith(app(), confidential, who, {
      redirectUri: TURNED.redirect,
      scope: OFFLINE,
    });
    const second = await signInWith(app(), confidential, who, {
      redirectUri: TURNED.redirect,
      scope: OFFLINE,
    });
    // A new secret: whoever holds it refreshes on, so its users stay signed in.
    const rotated = 'turned-rotated-0123456789abcdefghijklmn';
    await updateClient({ db: db() }, { id: TURNED.id, secret: rotated });
    const withRotated = await relyingParty(app(), TURNED.id, oidc.ClientSecretBasic(rotated));
    const kept = await refresh(withRotated, first.refresh_token ?? '');
    expect(kept.outcome).toBe('ok');

    // Public, the tokens would be a bearer's: whoever holds one (a leaked one included) could refresh
    // with no credential at all. They end with the change.
    await updateClient({ db: db() }, { id: TURNED.id, tokenEndpointAuthMethod: 'none' });
    const asPublic = await relyingParty(app(), TURNED.id);
    expect((await refresh(asPublic, kept.refreshToken)).outcome).toBe('invalid_grant');
    expect((await refresh(asPublic, second.refresh_token ?? '')).outcome).toBe('invalid_grant');
    const [audit] = (await adminEvents(db(), 'client:update')).slice(-1);
    // Its two codes and three refresh tokens (the first, used once, and its replacement; the second),
    // the used ones kept until they expire, as a reuse is told by them.
    expect(audit?.detail).toMatchObject({
      changed: 'clientSecret,tokenEndpointAuthMethod,requirePkce',
      ended: 5,
    });
    // A sign-in as a public client gets a refresh token that works.
    const signedIn = await signInWith(app(), asPublic, who, { redirectUri: TURNED.redirect, scope: OFFLINE });
    expect((await refresh(asPublic, signedIn.refresh_token ?? '')).outcome).toBe('ok');
  });

  it('a confidential client made public: a code it got without PKCE, and a sign-in it began without, redeem nothing', async () => {
    const who = await person();
    const confidential = await relyingParty(app(), BARE.id, oidc.ClientSecretBasic(SECRET));
    /** An authorization URL without PKCE, which a confidential client may leave out. */
    const withoutPkce = async () => {
      const flow = await codeFlow(BARE.redirect, 'openid email');
      const { code_challenge: _challenge, code_challenge_method: _method, ...parameters } = flow.parameters;
      return { url: oidc.buildAuthorizationUrl(confidential, parameters), checks: flow.checks };
    };
    const first = await withoutPkce();
    const issued = callbackOf(await authorizeInBrowser(app(), first.url, who));
    // A second sign-in: the password taken on the sign-in page, its resume not yet followed.
    const second = await withoutPkce();
    const browser = new TestBrowser(app());
    const toSignIn = await browser.get(second.url.pathname + second.url.search);
    const returnUrl = new URL(String(toSignIn.headers.location), ISSUER).searchParams.get('ReturnUrl') ?? '';
    await browser.loadSpa();
    const login = await browser.post('/api/login', {
      Username: who.email,
      Password: who.password,
      ReturnUrl: returnUrl,
    });
    expect(login.statusCode).toBe(200);

    await updateClient({ db: db() }, { id: BARE.id, secret: null });
    const asPublic = await relyingParty(app(), BARE.id);
    const { expectedState, expectedNonce } = first.checks;
    await expect(
      oidc.authorizationCodeGrant(asPublic, issued, { expectedState, expectedNonce }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    // The resume finds its sign-in gone and sends no code to the client.
    const resumed = await browser.get(returnUrl);
    expect(String(resumed.headers.location ?? '')).not.toContain(BARE.redirect);
    expect(resumed.statusCode).not.toBe(200);
  });
});
