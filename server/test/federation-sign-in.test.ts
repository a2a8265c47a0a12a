import { checkUsernameResponse, loginResponse } from '@keycard/contract';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { UpstreamProviderRecord } from '../src/federation/federation-repository.ts';
import { accounts, auditEvents } from '../src/store/tables/index.ts';
import {
  BOUND_DOMAIN,
  CALLBACK_URL,
  expectNotSignedIn,
  lastFederationAudit,
  localPart,
  PEOPLE,
  redirectPath,
  startRegisteredUpstream,
  UPSTREAM_CLIENT_ID,
  UPSTREAM_SECRET,
  UpstreamBrowser,
} from './federation-kit.ts';
import {
  claimsOf,
  createAccount,
  redeemCode,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';
import type { UpstreamIdp, UpstreamPerson } from './support/upstream-idp.ts';

let idp: UpstreamIdp;
let providerId: UpstreamProviderRecord['id'];

const service = useTestService({
  setUp: async ({ db }) => {
    await registerTestClient(db);
    ({ idp, providerId } = await startRegisteredUpstream(db));
  },
  tearDown: () => idp.close(),
});
const app = () => service().app;
const db = () => service().db;

/** A verified person of the bound domain, known upstream from now on: one test's own, whatever ran before. */
function newPerson(name: string, displayName: string): UpstreamPerson {
  const who = {
    sub: `sub-${name}`,
    email: `${name}@${BOUND_DOMAIN}`,
    emailVerified: true,
    name: displayName,
    password: `${name}-upstream-pw`,
  };
  idp.setPerson(who);
  return who;
}

/** The whole journey from the relying party to its ID token, through the upstream provider. */
async function federatedSignIn(who: UpstreamPerson) {
  const browser = new TestBrowser(app());
  const auth = await startAuthorization(browser);
  await browser.loadSpa();
  const check = checkUsernameResponse.parse(
    (await browser.post('/api/CheckUsername', { Username: who.email, ReturnUrl: auth.returnUrl })).json(),
  );
  expect(check).toEqual({
    userHasExternalIdentityProvider: true,
    returnUrl: auth.returnUrl,
    externalIdentityProviderGuid: providerId,
  });

  const redirect = await browser.get(redirectPath(auth.returnUrl, providerId, who.email));
  expect(redirect.statusCode).toBe(302);
  const authorizationUrl = String(redirect.headers.location);
  const callback = await new UpstreamBrowser().signIn(authorizationUrl, who);
  const back = await browser.get(localPart(callback));
  expect(back.statusCode).toBe(302);
  expect(back.headers.location).toBe(`http://localhost:3000${auth.returnUrl}`);
  const code = await resumeToCode(browser, auth.returnUrl);
  const tokens = await redeemCode(app(), code, auth.verifier);
  return { authorizationUrl, redirect, back, claims: claimsOf(tokens.id_token) };
}

describe('federated sign-in (DESIGN §1 Federation)', () => {
  it('CheckUsername answers by domain only: bound domain external, any other the password step', async () => {
    const browser = new TestBrowser(app());
    await browser.loadSpa();
    // Existing (local or linked) and unknown addresses of one domain get byte-identical answers.
    const local = await createAccount(
      db(),
      `kept-local-${Date.now()}@example.org`,
      'Local-Password-42',
      'Kim Local',
    );
    const linked = await createAccount(db(), `linked-${Date.now()}@${BOUND_DOMAIN}`, null, 'Lin Linked');
    await db()
      .update(accounts)
      .set({ externalIdpId: providerId, externalSubject: 'linked-subject' })
      .where(eq(accounts.id, linked.id));
    for (const [usernames, external] of [
      [[`nobody-here@${BOUND_DOMAIN.toUpperCase()}`, linked.email], true],
      [[PEOPLE.eve.email, local.email, 'nobody-at-all@example.org'], false],
    ] as const) {
      const bodies = new Set<string>();
      for (const username of usernames) {
        const answer = await browser.post('/api/CheckUsername', { Username: username, ReturnUrl: null });
        const body = checkUsernameResponse.parse(answer.json());
        expect(body.userHasExternalIdentityProvider).toBe(external);
        expect(body.externalIdentityProviderGuid).toBe(external ? providerId : null);
        bodies.add(answer.body);
      }
      expect(bodies.size).toBe(1);
    }
  });

  it('provisions an account for a new verified address and signs it in at the relying party', async () => {
    const { authorizationUrl, redirect, back, claims } = await federatedSignIn(PEOPLE.ada);

    // Authorization code + PKCE upstream, with state, nonce and the e-mail as login_hint.
    const upstream = new URL(authorizationUrl);
    expect(upstream.origin).toBe(idp.issuer);
    expect(Object.fromEntries(upstream.searchParams)).toMatchObject({
      client_id: UPSTREAM_CLIENT_ID,
      response_type: 'code',
      redirect_uri: CALLBACK_URL,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      login_hint: PEOPLE.ada.email,
    });
    for (const name of ['state', 'nonce', 'code_challenge']) {
      expect(upstream.searchParams.get(name)).toMatch(/^[\w-]{20,}$/);
    }
    expect(idp.lastLoginHint()).toBe(PEOPLE.ada.email);

    // The flow cookie, named after the flow's state: signed, HttpOnly, Lax, ten minutes; cleared by
    // the callback.
    const flowCookieName = `federation-${upstream.searchParams.get('state')}`;
    expect(redirect.cookies.map((cookie) => cookie.name)).toContain(flowCookieName);
    const [flowCookie] = redirect.cookies.filter((cookie) => cookie.name === flowCookieName);
    expect(flowCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 600 });
    expect(flowCookie?.value).toMatch(/\./);
    expect(back.cookies.find((cookie) => cookie.name === flowCookieName)?.value).toBe('');

    const [account] = await db().select().from(accounts).where(eq(accounts.email, PEOPLE.ada.email));
    expect(account).toMatchObject({
      displayName: 'Ada Upstream',
      firstName: 'Ada',
      passwordHash: null,
      externalIdpId: providerId,
      externalSubject: PEOPLE.ada.sub,
    });
    expect(claims).toMatchObject({ sub: account?.id, email: PEOPLE.ada.email, name: 'Ada Upstream' });

    const audit = await lastFederationAudit(db());
    expect(audit).toMatchObject({
      outcome: 'success',
      accountId: account?.id,
      detail: { step: 'callback', providerId, account: 'provisioned' },
    });
    // The redirect upstream is on record too (DESIGN §2 Audit log: federation redirect).
    const redirects = await db().select().from(auditEvents).where(eq(auditEvents.event, 'federation'));
    expect(redirects).toContainEqual(
      expect.objectContaining({ outcome: 'success', detail: { step: 'redirect', providerId } }),
    );
    const trail = JSON.stringify(await db().select().from(auditEvents));
    expect(trail).not.toContain(UPSTREAM_SECRET);
    expect(trail).not.toContain(upstream.searchParams.get('state') ?? '-');
  });

  it('signs a returning person into the same account', async () => {
    const hal = newPerson('hal', 'Hal Upstream');
    await federatedSignIn(hal);
    const [before] = await db().select().from(accounts).where(eq(accounts.email, hal.email));
    const { claims } = await federatedSignIn(hal);
    expect(claims.sub).toBe(before?.id);
    expect(await lastFederationAudit(db())).toMatchObject({ detail: { account: 'returning' } });
  });

  it('goes on only with its audit row: when the row cannot be written, the interaction holds no result and the person sees the error page', async () => {
    const ida = newPerson('ida', 'Ida Upstream');
    const browser = new TestBrowser(app());
    const auth = await startAuthorization(browser);
    await browser.loadSpa();
    const redirect = await browser.get(redirectPath(auth.returnUrl, providerId, ida.email));
    const callback = await new UpstreamBrowser().signIn(String(redirect.headers.location), ida);
    await db().execute(
      sql.raw(
        "alter table audit_event add constraint refused check (not (event = 'federation' and outcome = 'success' and detail->>'step' = 'callback')) not valid",
      ),
    );
    try {
      const back = await browser.get(localPart(callback));
      // A navigation: the person sees the error page with the reference of the failure's log line.
      expect(back.statusCode).toBe(303);
      expect(back.headers.location).toBe(`/error/${String(back.headers['x-request-id'])}`);
    } finally {
      await db().execute(sql.raw('alter table audit_event drop constraint refused'));
    }
    await expectNotSignedIn(browser, auth.returnUrl);
  });

  it('links an existing local account of a bound domain by its verified address', async () => {
    const local = await createAccount(db(), PEOPLE.carol.email, 'Local-Password-42', 'Carol Local');
    const { claims } = await federatedSignIn(PEOPLE.carol);
    expect(claims).toMatchObject({ sub: local.id, name: 'Carol Local' });
    const [linked] = await db().select().from(accounts).where(eq(accounts.id, local.id));
    expect(linked).toMatchObject({ externalIdpId: providerId, externalSubject: PEOPLE.carol.sub });
    expect(await lastFederationAudit(db())).toMatchObject({ detail: { account: 'linked' } });
  });

  it('does not accept a local password for an address that signs in upstream, linked or not yet', async () => {
    // A local account with a password, linked by the person's first sign-in upstream.
    const jan = newPerson('jan', 'Jan Upstream');
    await createAccount(db(), jan.email, 'Local-Password-42', 'Jan Local');
    await federatedSignIn(jan);
    expect(await lastFederationAudit(db())).toMatchObject({ detail: { account: 'linked' } });
    const unlinked = await createAccount(db(), `frank@${BOUND_DOMAIN}`, 'Local-Password-42', 'Frank Local');
    // Linked to the upstream provider, on a domain no binding names (bound once, or linked by hand):
    // the password it kept from before is not a way in either.
    const linkedElsewhere = await createAccount(
      db(),
      `grace-${Date.now()}@unbound.example`,
      'Local-Password-42',
      'Grace Linked',
    );
    await db()
      .update(accounts)
      .set({ externalIdpId: providerId, externalSubject: 'grace-subject' })
      .where(eq(accounts.id, linkedElsewhere.id));
    for (const [email, password] of [
      [jan.email, 'Local-Password-42'],
      [unlinked.email, 'Local-Password-42'],
      [linkedElsewhere.email, 'Local-Password-42'],
    ] as const) {
      const browser = new TestBrowser(app());
      const auth = await startAuthorization(browser);
      await browser.loadSpa();
      const login = await browser.post('/api/login', {
        Username: email,
        Password: password,
        ReturnUrl: auth.returnUrl,
      });
      expect(loginResponse.parse(login.json())).toMatchObject({
        isAuthenticated: false,
        verificationType: 0,
      });
    }
  });
});
