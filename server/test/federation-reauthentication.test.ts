import { describe, expect, it } from 'vitest';
import {
  authenticationAgeRefusal,
  reauthenticationAsked,
  upstreamLoginTime,
  upstreamReauthenticationParameters,
} from '../src/federation/reauthentication.ts';
import {
  expectErrorPage,
  expectNotSignedIn,
  lastFederationAudit,
  PEOPLE,
  sentUpstream,
  startRegisteredUpstream,
  throughUpstream,
} from './federation-kit.ts';
import { claimsOf, redeemCode, registerTestClient, resumeToCode } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';
import type { UpstreamIdp } from './support/upstream-idp.ts';

let idp: UpstreamIdp;
let providerId: string;

const service = useTestService({
  setUp: async ({ db }) => {
    await registerTestClient(db);
    ({ idp, providerId } = await startRegisteredUpstream(db));
  },
  tearDown: () => idp.close(),
});
const app = () => service().app;
const db = () => service().db;

/** 30 days in seconds, as the upstream request states it. */
const THIRTY_DAYS = String(30 * 24 * 60 * 60);
const SESSION_MAX = 30 * 24 * 60 * 60;

/** Through the upstream provider, having authenticated there `secondsAgo` seconds ago. */
async function authenticatedUpstream(parameters: Record<string, string>, secondsAgo: number) {
  idp.authenticateSecondsAgo(secondsAgo);
  try {
    return await throughUpstream(app(), providerId, PEOPLE.ada, parameters);
  } finally {
    idp.authenticateSecondsAgo(0);
  }
}

describe('re-authentication the relying party asks for is asked upstream (OpenID Connect Core §3.1.2.1)', () => {
  it.each([
    // Never an authentication older than the session's 30 days (SESSION_MAX_DAYS) would last.
    [{}, { prompt: null, max_age: THIRTY_DAYS }],
    [{ prompt: 'login' }, { prompt: 'login', max_age: THIRTY_DAYS }],
    [{ max_age: '300' }, { prompt: null, max_age: '300' }],
    [{ max_age: '3000000' }, { prompt: null, max_age: THIRTY_DAYS }],
    [
      { prompt: 'login', max_age: '300' },
      { prompt: 'login', max_age: '300' },
    ],
    // max_age=0 is prompt=login (oidc-provider turns one into the other).
    [{ max_age: '0' }, { prompt: 'login', max_age: THIRTY_DAYS }],
  ])('sends a request with %j upstream with %j', async (asked, upstream) => {
    const { authorizationUrl } = await sentUpstream(app(), providerId, PEOPLE.ada, asked);
    expect({
      prompt: authorizationUrl.searchParams.get('prompt'),
      max_age: authorizationUrl.searchParams.get('max_age'),
    }).toEqual(upstream);
  });

  it('signs in with prompt=login and max_age=300 when the provider authenticated the person just now', async () => {
    const { browser, auth, back } = await authenticatedUpstream({ prompt: 'login', max_age: '300' }, 0);
    expect(back.headers.location).toBe(`http://localhost:3000${auth.returnUrl}`);
    const tokens = await redeemCode(app(), await resumeToCode(browser, auth.returnUrl), auth.verifier);
    expect(claimsOf(tokens.id_token)).toMatchObject({ email: PEOPLE.ada.email });
  });

  it('gives the relying party the time the person authenticated upstream as auth_time, not the time they came back', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { browser, auth } = await authenticatedUpstream({ max_age: '300' }, 200);
    const tokens = await redeemCode(app(), await resumeToCode(browser, auth.returnUrl), auth.verifier);
    const authTime = Number(claimsOf(tokens.id_token).auth_time);
    // 200 s before the sign-in came back, give or take the second the test itself took.
    expect(authTime).toBeGreaterThanOrEqual(before - 200);
    expect(authTime).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) - 200);
  });

  it('refuses, for prompt=login, an authentication the provider kept from before (an hour ago)', async () => {
    const kept = await authenticatedUpstream({ prompt: 'login' }, 3_600);
    expectErrorPage(kept.back);
    expect(await lastFederationAudit(db())).toMatchObject({
      outcome: 'refused',
      detail: { step: 'callback', reason: 'authentication_too_old', providerId },
    });
    await expectNotSignedIn(kept.browser, kept.auth.returnUrl);
  });

  it('refuses an upstream authentication older than max_age=300 allows (340 s ago), within 30 s of clock tolerance', async () => {
    const tooOld = await authenticatedUpstream({ max_age: '300' }, 340);
    expectErrorPage(tooOld.back);
    expect(await lastFederationAudit(db())).toMatchObject({
      outcome: 'refused',
      detail: { step: 'callback', reason: 'authentication_too_old', providerId },
    });
    await expectNotSignedIn(tooOld.browser, tooOld.auth.returnUrl);

    const withinTolerance = await authenticatedUpstream({ max_age: '300' }, 320);
    expect(withinTolerance.back.headers.location).toBe(
      `http://localhost:3000${withinTolerance.auth.returnUrl}`,
    );
    // The relying party is told when the person authenticated, as it was: its own check of auth_time
    // decides what to make of the seconds the clocks were granted.
    const tokens = await redeemCode(
      app(),
      await resumeToCode(withinTolerance.browser, withinTolerance.auth.returnUrl),
      withinTolerance.auth.verifier,
    );
    const age = Math.floor(Date.now() / 1000) - Number(claimsOf(tokens.id_token).auth_time);
    expect(age).toBeGreaterThanOrEqual(320);
    expect(age).toBeLessThanOrEqual(322);
    // Without max_age, how long ago the person authenticated upstream is the provider's business.
    const unasked = await authenticatedUpstream({}, 86_400);
    expect(unasked.back.headers.location).toBe(`http://localhost:3000${unasked.auth.returnUrl}`);
  });

  it('signs in with an upstream authentication just under 30 days old, whose code is redeemed, and refuses one of 30 days', async () => {
    // The session would end 30 days after the authentication (SESSION_MAX_DAYS): a provider that
    // ignores the max_age it was sent must not start one that is over at once.
    const recent = await authenticatedUpstream({}, SESSION_MAX - 60);
    const tokens = await redeemCode(
      app(),
      await resumeToCode(recent.browser, recent.auth.returnUrl),
      recent.auth.verifier,
    );
    expect(tokens.id_token).toBeTruthy();
    const tooOld = await authenticatedUpstream({}, SESSION_MAX);
    expectErrorPage(tooOld.back);
    expect(await lastFederationAudit(db())).toMatchObject({
      outcome: 'refused',
      detail: { step: 'callback', reason: 'authentication_too_old', providerId },
    });
    await expectNotSignedIn(tooOld.browser, tooOld.auth.returnUrl);
  });
});

describe('reading and checking re-authentication', () => {
  it('reads prompt=login among other prompts and max_age in text, as oidc-provider stores them', () => {
    expect(reauthenticationAsked({ prompt: 'consent login', max_age: '3600' }, SESSION_MAX)).toEqual({
      promptLogin: true,
      maxAge: 3600,
      sessionMaxAge: SESSION_MAX,
    });
    expect(reauthenticationAsked({ prompt: 'consent' }, SESSION_MAX)).toMatchObject({
      promptLogin: false,
      maxAge: null,
    });
    // Only whole seconds in text, as the provider stores them; anything else asks nothing.
    for (const maxAge of ['30s', 'x30', '-30', 30]) {
      expect(reauthenticationAsked({ max_age: maxAge }, SESSION_MAX).maxAge).toBeNull();
    }
    expect(
      upstreamReauthenticationParameters({ promptLogin: false, maxAge: null, sessionMaxAge: SESSION_MAX }),
    ).toEqual({
      max_age: THIRTY_DAYS,
    });
  });

  it('refuses an ID token without auth_time when max_age was asked, and checks nothing without max_age', () => {
    const now = new Date('2025-06-01T12:00:00Z');
    const sentAt = new Date(now.getTime() - 60_000);
    const nowSeconds = now.getTime() / 1000;
    const maxAge = { promptLogin: false, maxAge: 300, sessionMaxAge: SESSION_MAX };
    const nothing = { promptLogin: false, maxAge: null, sessionMaxAge: SESSION_MAX };
    expect(authenticationAgeRefusal(maxAge, undefined, now, sentAt)).toBe('auth_time_missing');
    // No time at all, as a token could state it: as good as none.
    expect(authenticationAgeRefusal(maxAge, Number.POSITIVE_INFINITY, now, sentAt)).toBe('auth_time_missing');
    expect(authenticationAgeRefusal(maxAge, nowSeconds - 330, now, sentAt)).toBeNull();
    expect(authenticationAgeRefusal(maxAge, nowSeconds - 331, now, sentAt)).toBe('authentication_too_old');
    expect(authenticationAgeRefusal(nothing, undefined, now, sentAt)).toBeNull();
    expect(authenticationAgeRefusal(nothing, nowSeconds - 86_400, now, sentAt)).toBeNull();
  });

  it('with prompt=login refuses an auth_time from before the sign-in was sent upstream, 30 s of clocks granted', () => {
    const now = new Date('2025-06-01T12:00:00Z');
    const sentAt = new Date(now.getTime() - 60_000);
    const sentSeconds = sentAt.getTime() / 1000;
    const login = { promptLogin: true, maxAge: null, sessionMaxAge: SESSION_MAX };
    expect(authenticationAgeRefusal(login, sentSeconds - 30, now, sentAt)).toBeNull();
    expect(authenticationAgeRefusal(login, sentSeconds - 31, now, sentAt)).toBe('authentication_too_old');
    expect(authenticationAgeRefusal(login, sentSeconds + 10, now, sentAt)).toBeNull();
    // Without auth_time nothing tells how recent it is: prompt=login alone does not require the claim.
    expect(authenticationAgeRefusal(login, undefined, now, sentAt)).toBeNull();
  });

  it('records the upstream auth_time as the login time, never later than now, and now when it is not stated', () => {
    expect(upstreamLoginTime(1_000, 2_000)).toBe(1_000);
    expect(upstreamLoginTime(2_500, 2_000)).toBe(2_000);
    expect(upstreamLoginTime(null, 2_000)).toBeUndefined();
    // A NumericDate may carry a fraction; the session's times are whole seconds.
    expect(upstreamLoginTime(1_000.75, 2_000)).toBe(1_000);
  });

  it("refuses an auth_time 30 days old, the session's absolute lifetime, without the 30 s of clocks, asked or not", () => {
    const now = new Date('2025-06-01T12:00:00Z');
    const nowSeconds = now.getTime() / 1000;
    const nothing = { promptLogin: false, maxAge: null, sessionMaxAge: SESSION_MAX };
    expect(authenticationAgeRefusal(nothing, nowSeconds - SESSION_MAX + 1, now, now)).toBeNull();
    expect(authenticationAgeRefusal(nothing, nowSeconds - SESSION_MAX, now, now)).toBe(
      'authentication_too_old',
    );
  });
});
