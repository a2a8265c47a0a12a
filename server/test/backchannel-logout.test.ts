import { VerificationType } from '@keycard/contract';
import { eq } from 'drizzle-orm';
import * as jose from 'jose';
import * as oidc from 'openid-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKCHANNEL_LOGOUT_EVENT } from '../src/backchannel/backchannel-delivery.ts';
import { logoutTokensOf } from '../src/backchannel/backchannel-repository.ts';
import { issueCode } from '../src/codes/codes.ts';
import { finishLogout } from '../src/oidc/logout.ts';
import { deleteUser } from '../src/provisioning/user-lookup-operations.ts';
import { disableUser } from '../src/provisioning/user-operations.ts';
import { manualClock } from '../src/store/clock.ts';
import { auditEvents, backchannelLogouts, oidcClients } from '../src/store/tables/index.ts';
import { csrfHeaders, fetchCsrf, testConfig } from './support/app.ts';
import {
  registerConfidentialClient,
  relyingParty,
  signInThrough,
} from './support/confidential-relying-party.ts';
import { LogoutReceiver } from './support/logout-receiver.ts';
import { createAccount, REDIRECT_URI, type TestBrowser } from './support/oidc-flow.ts';
import { ISSUER } from './support/relying-party.ts';
import { useTestService } from './support/test-service.ts';

const receiver = new LogoutReceiver();
const clock = manualClock();
const service = useTestService({
  clock,
  setUp: async ({ db }) => {
    const uri = await receiver.listen();
    await registerConfidentialClient(db, 'planner', { backchannelLogoutUri: uri });
    await registerConfidentialClient(db, 'no-listener');
    await registerConfidentialClient(db, 'offline-planner', {
      backchannelLogoutUri: uri,
      grantTypes: ['authorization_code', 'refresh_token'],
      scope: 'openid email profile offline_access',
    });
  },
  tearDown: () => receiver.close(),
});
const app = () => service().app;

// Each test starts with no logout tokens: a token another test left pending or given up would count
// in its passes and rows.
beforeEach(async () => {
  await service().db.delete(backchannelLogouts);
});

afterEach(() => {
  receiver.received.length = 0;
  receiver.status = 200;
});

/** Signs a person in through `clientId`, who then asks for a sign-out; answers the stored request's id. */
async function signInAndAskOut(clientId: string) {
  const { tokens, browser } = await signInThrough(service(), await relyingParty(app(), clientId));
  const end = await browser.get(
    `/oidc/session/end?${new URLSearchParams({ id_token_hint: tokens.id_token ?? '' })}`,
  );
  const logoutId =
    new URL(String(end.headers.location), 'http://localhost:3000').searchParams.get('logoutId') ?? '';
  return { tokens, browser, logoutId };
}

/** Signs a person in through `planner`, then signs out at the relying party's request (SPA /logout). */
async function signInAndOut(clientId = 'planner') {
  const { tokens, browser, logoutId } = await signInAndAskOut(clientId);
  const logout = await browser.post('/api/Logout', { logoutId });
  expect(logout.statusCode).toBe(200);
  const idClaims = tokens.claims();
  if (!idClaims) throw new Error('no ID token');
  return { idClaims };
}

async function verifyLogoutToken(token: string, audience = 'planner') {
  const jwks = (await app().inject({ method: 'GET', url: '/oidc/jwks' })).json<jose.JSONWebKeySet>();
  return jose.jwtVerify(token, jose.createLocalJWKSet(jwks), {
    issuer: ISSUER,
    audience,
    typ: 'logout+jwt',
    maxTokenAge: '2 minutes',
  });
}

describe('OpenID Connect Back-Channel Logout 1.0', () => {
  it('posts a logout token naming the session and the person, after the sign-out has answered', async () => {
    const { idClaims } = await signInAndOut();
    // The person's sign-out answered before anything was posted: delivery is the worker's job.
    expect(receiver.received).toEqual([]);

    expect(await app().logouts.runOnce()).toBe(1);
    const [token] = receiver.tokens();
    const { payload, protectedHeader } = await verifyLogoutToken(token ?? '');
    expect(protectedHeader.typ).toBe('logout+jwt');
    expect(payload.events).toEqual({ [BACKCHANNEL_LOGOUT_EVENT]: {} });
    expect(payload.sid).toBe(idClaims.sid);
    expect(payload.sub).toBe(idClaims.sub);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(payload).not.toHaveProperty('nonce');
    expect(typeof payload.iat).toBe('number');

    // Delivered once: a later pass posts nothing again.
    expect(await app().logouts.runOnce()).toBe(0);
    expect(receiver.received).toHaveLength(1);
  });

  it('retries a failing relying party 15 s (±20 %) later, by the clock the worker reads', async () => {
    await signInAndOut();
    receiver.status = 503;
    expect(await app().logouts.runOnce()).toBe(1);
    const [row] = (await logoutTokensOf(service().db, 'planner')).filter((r) => r.deliveredAt === null);
    expect(row).toMatchObject({ attempts: 1, failedAt: null, lastError: expect.stringContaining('503') });
    const delay = (row?.nextAttemptAt.getTime() ?? 0) - (await clock.now()).getTime();
    expect(delay).toBeGreaterThanOrEqual(12_000);
    expect(delay).toBeLessThanOrEqual(18_000);

    receiver.status = 204;
    clock.advance(11_999);
    expect(await app().logouts.runOnce()).toBe(0);
    clock.advance(6_001);
    expect(await app().logouts.runOnce()).toBe(1);
    expect(receiver.received).toHaveLength(2);
    const [retried] = (await logoutTokensOf(service().db, 'planner')).filter((r) => r.id === row?.id);
    expect(retried?.deliveredAt).not.toBeNull();
    // Each attempt is a fresh token (its own jti and two-minute life).
    const [first, second] = receiver.tokens();
    expect(jose.decodeJwt(first ?? '').jti).not.toBe(jose.decodeJwt(second ?? '').jti);
  });

  it("keeps a key in the relying party's URI out of last_error, which the log line repeats", async () => {
    const uri = await receiver.listen();
    await service()
      .db.update(oidcClients)
      .set({ backchannelLogoutUri: `${uri}?key=rp-own-secret-42` })
      .where(eq(oidcClients.clientId, 'planner'));
    try {
      await signInAndOut();
      receiver.status = 503;
      expect(await app().logouts.runOnce()).toBe(1);
      const [row] = (await logoutTokensOf(service().db, 'planner')).filter((r) => r.deliveredAt === null);
      expect(row?.lastError).toContain(`${uri} answered 503`);
      expect(row?.lastError).not.toContain('rp-own-secret-42');
      // Delivered to the URI as registered, key and all, once the relying party answers.
      receiver.status = 204;
      clock.advance(18_000);
      expect(await app().logouts.runOnce()).toBe(1);
      expect(receiver.received).toHaveLength(2);
    } finally {
      await service()
        .db.update(oidcClients)
        .set({ backchannelLogoutUri: uri })
        .where(eq(oidcClients.clientId, 'planner'));
    }
  });

  it('gives up after 10 attempts spread over about an hour, and posts nothing more', async () => {
    await signInAndOut();
    receiver.status = 500;
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect(await app().logouts.runOnce()).toBe(1);
      clock.advance(18 * 60_000); // past the longest delay: 15 min + 20 %
    }
    expect(await app().logouts.runOnce()).toBe(0);
    expect(receiver.received).toHaveLength(10);
    const rows = await logoutTokensOf(service().db, 'planner');
    expect(rows.at(-1)).toMatchObject({ attempts: 10, deliveredAt: null, failedAt: expect.any(Date) });
  });

  it('sends nothing to a client without a back-channel logout URI', async () => {
    await signInAndOut('no-listener');
    expect(await app().logouts.runOnce()).toBe(0);
    expect(await logoutTokensOf(service().db, 'no-listener')).toEqual([]);
  });

  describe('when the service ends every session of an account', () => {
    /** Signs in through `planner`, then lets `end` end the account's sessions; answers the ID token's claims. */
    async function signInThenEnd(end: (accountId: string) => Promise<void>) {
      const { tokens } = await signInThrough(service(), await relyingParty(app(), 'planner'));
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('no ID token');
      await end(idClaims.sub);
      expect(await app().logouts.runOnce()).toBe(1);
      const [token] = receiver.tokens();
      const { payload } = await verifyLogoutToken(token ?? '');
      expect(payload).toMatchObject({ sub: idClaims.sub, sid: idClaims.sid });
    }

    it('an admin disable tells the relying party', async () => {
      await signInThenEnd(async (id) => {
        await disableUser({ db: service().db, clock }, { id });
      });
    });

    it('an admin delete tells the relying party', async () => {
      await signInThenEnd(async (id) => {
        await deleteUser({ db: service().db, clock }, { id });
      });
    });

    it('a password reset tells the relying party', async () => {
      await signInThenEnd(async (accountId) => {
        const code = await issueCode(service().db, clock, testConfig().codeLifetimes, {
          accountId,
          type: VerificationType.PasswordReset,
        });
        const session = await fetchCsrf(app());
        const response = await app().inject({
          method: 'POST',
          url: '/api/ResetPassword',
          headers: csrfHeaders(session),
          payload: {
            verificationCode: code,
            verificationType: VerificationType.PasswordReset,
            newPassword: 'A-new-Passphrase-77',
            redirectUrl: null,
          },
        });
        expect(response.json()).toMatchObject({ success: true });
      });
    });
  });

  describe('when another account signs in on the same browser', () => {
    /**
     * A relying party asks for prompt=login and another person signs in on this browser: the
     * provider ends the first person's session through its self-submitting sign-out form, which the
     * browser posts; then the sign-in goes on. Answers where it returns to the relying party.
     */
    async function switchAccount(browser: TestBrowser, { dropLogout = false } = {}) {
      const config = await relyingParty(app(), 'no-listener');
      const authorize = oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT_URI,
        scope: 'openid',
        prompt: 'login',
        state: oidc.randomState(),
      });
      const start = await browser.get(authorize.pathname + authorize.search);
      const returnUrl = new URL(String(start.headers.location), ISSUER).searchParams.get('ReturnUrl') ?? '';
      const bob = await createAccount(service().db, `bob-${Date.now()}@example.com`, 'Correct-Horse-42');
      const login = await browser.post('/api/login', {
        Username: bob.email,
        Password: 'Correct-Horse-42',
        ReturnUrl: returnUrl,
      });
      expect(login.json()).toMatchObject({ isAuthenticated: true });
      const form = await browser.get(returnUrl);
      expect(form.statusCode).toBe(200);
      const confirmed = await browser.submitForm(form, dropLogout ? ['logout'] : []);
      expect(confirmed.statusCode).toBe(303);
      if (dropLogout) return undefined;
      // Then the other account's sign-in goes on to its relying party.
      let answer = confirmed;
      for (let hop = 0; hop < 5 && answer.statusCode === 303; hop++) {
        const location = new URL(String(answer.headers.location), ISSUER);
        if (location.href.startsWith(REDIRECT_URI)) return location;
        answer = await browser.get(location.pathname + location.search);
      }
      throw new Error(`the sign-in ended at ${answer.statusCode} ${answer.headers.location ?? ''}`);
    }

    it("tells the first person's relying party, ends their refresh tokens and records the sign-out", async () => {
      const config = await relyingParty(app(), 'offline-planner');
      const { tokens, browser } = await signInThrough(service(), config, {
        scope: 'openid email offline_access',
        // OpenID Connect Core §11: a refresh token for offline_access needs prompt=consent.
        prompt: 'consent',
      });
      const ada = tokens.claims();
      if (!ada || !tokens.refresh_token) throw new Error('no ID or refresh token');
      const signOuts = async () =>
        (await service().db.select().from(auditEvents).where(eq(auditEvents.event, 'logout'))).filter(
          (row) => row.accountId === ada.sub,
        ).length;

      const connectionsBefore = receiver.connections;
      const callback = await switchAccount(browser);
      expect(callback?.searchParams.get('code')).toBeTruthy();
      // Nothing was posted inside the person's request: not even a connection was opened.
      expect(receiver.connections).toBe(connectionsBefore);

      // Queued like every other end of a session, and posted by the worker (not inline, where an
      // allowed private-network relying party was refused and a failure never retried).
      expect(await app().logouts.runOnce()).toBe(1);
      expect(receiver.received).toHaveLength(1);
      const [token] = receiver.tokens();
      const { payload } = await verifyLogoutToken(token ?? '', 'offline-planner');
      expect(payload).toMatchObject({ sub: ada.sub, sid: ada.sid });
      // The provider keeps an offline_access grant across a sign-out; this service's sign-out does not.
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      expect(await signOuts()).toBe(1);
    });

    it('ends nothing when the confirmation leaves out logout=yes, which only takes one client out', async () => {
      const config = await relyingParty(app(), 'offline-planner');
      const { tokens, browser } = await signInThrough(service(), config);
      await switchAccount(browser, { dropLogout: true });
      expect(await app().logouts.runOnce()).toBe(0);
      const ada = tokens.claims();
      const signOuts = await service().db.select().from(auditEvents).where(eq(auditEvents.event, 'logout'));
      expect(signOuts.filter((row) => row.accountId === ada?.sub)).toEqual([]);
    });
  });

  it('advertises back-channel logout with sid in the discovery document', async () => {
    const metadata = (await relyingParty(app(), 'planner')).serverMetadata();
    expect(metadata.backchannel_logout_supported).toBe(true);
    expect(metadata.backchannel_logout_session_supported).toBe(true);
  });
});

describe('the worker woken by a sign-out', () => {
  it('is woken once the tokens are committed, and only by a sign-out that queued any', async () => {
    const db = service().db;
    let nudges = 0;
    let queuedWhenWoken = 0;
    const queue = {
      clock,
      nudge: () => {
        nudges++;
        void logoutTokensOf(db, 'planner').then((rows) => {
          queuedWhenWoken = rows.filter((row) => row.deliveredAt === null && row.failedAt === null).length;
        });
      },
    };
    const { logoutId } = await signInAndAskOut('planner');
    expect(await finishLogout(db, { logoutId }, null, queue)).toMatchObject({ postLogoutRedirectUri: null });
    expect(nudges).toBe(1);
    await expect.poll(() => queuedWhenWoken).toBe(1);

    // The same request again (the page reloaded) ends and queues nothing: no wake-up.
    await finishLogout(db, { logoutId }, null, queue);
    expect(nudges).toBe(1);
    // A sign-out whose only client has no back-channel listener queues nothing either.
    const quiet = await signInAndAskOut('no-listener');
    await finishLogout(db, { logoutId: quiet.logoutId }, null, queue);
    expect(nudges).toBe(1);
    expect(await app().logouts.runOnce()).toBe(1);
  });
});
