import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { addUpstreamProvider } from '../src/provisioning/provider-operations.ts';
import { clockReading } from '../src/store/clock.ts';
import { accounts, auditEvents, upstreamProviders } from '../src/store/tables/index.ts';
import {
  BOUND_DOMAIN,
  expectErrorPage,
  expectNotSignedIn,
  lastFederationAudit,
  localPart,
  PEOPLE,
  PUBLIC_URL,
  redirectPath,
  sessionCount,
  startRegisteredUpstream,
  UPSTREAM_CLIENT_ID,
  UPSTREAM_SECRET,
  UpstreamBrowser,
} from './federation-kit.ts';
import { createAccount, registerTestClient, startAuthorization, TestBrowser } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';
import type { UpstreamIdp, UpstreamPerson } from './support/upstream-idp.ts';

let idp: UpstreamIdp;
let providerId: string;
/** The service's clock runs this far ahead of the machine's (the upstream provider's tokens stay valid). */
let aheadMs = 0;
/** How long an instance keeps a provider's discovery document and key set (upstream-client.ts). */
const CONFIGURATION_KEPT_MS = 5 * 60_000;

/** Every line the app logs, as pino writes it (one JSON object a line). */
const logged: string[] = [];

const service = useTestService({
  clock: clockReading(() => Date.now() + aheadMs),
  logger: { level: 'info', stream: { write: (line: string) => void logged.push(line) } },
  setUp: async ({ db }) => {
    await registerTestClient(db);
    ({ idp, providerId } = await startRegisteredUpstream(db));
  },
  tearDown: () => idp.close(),
});
const app = () => service().app;
const db = () => service().db;

async function expectRefused(step: 'redirect' | 'callback', reason: string, cause?: string) {
  expect(await lastFederationAudit(db())).toMatchObject({
    outcome: 'refused',
    detail: { step, reason, ...(cause === undefined ? {} : { cause }) },
  });
}

/** A browser in a live sign-in at the relying party, sent upstream by the redirect call. */
async function startedFlow(
  who: UpstreamPerson = PEOPLE.ada,
  provider = providerId,
  parameters: Record<string, string> = {},
) {
  const browser = new TestBrowser(app());
  const auth = await startAuthorization(browser, parameters);
  const redirect = await browser.get(redirectPath(auth.returnUrl, provider, who.email));
  return { browser, auth, redirect, authorizationUrl: String(redirect.headers.location) };
}

/** Signs in upstream and answers the callback path (with the provider's code and state) for Keycard. */
async function upstreamCallback(who: UpstreamPerson, flow: Awaited<ReturnType<typeof startedFlow>>) {
  return localPart(await new UpstreamBrowser().signIn(flow.authorizationUrl, who));
}

describe('RedirectToExternalIdentityProvider refusals', () => {
  it('refuses a ReturnUrl that is not this browser’s live sign-in', async () => {
    const other = new TestBrowser(app());
    const { returnUrl } = await startAuthorization(other);
    const stranger = new TestBrowser(app());
    for (const candidate of [returnUrl, '/oidc/auth/unknown-uid', 'https://evil.example/oidc/auth/x']) {
      const response = await stranger.get(redirectPath(candidate, providerId, PEOPLE.ada.email));
      expectErrorPage(response);
      await expectRefused('redirect', 'interaction_gone');
    }
  });

  it('refuses an unknown provider GUID', async () => {
    const { redirect } = await startedFlow(PEOPLE.ada, '3f1c2a9e-0000-4000-8000-000000000001');
    expectErrorPage(redirect);
    await expectRefused('redirect', 'unknown_provider');
  });

  it('refuses a login_hint whose domain is not bound to that provider', async () => {
    const other = await addUpstreamProvider(
      { db: db() },
      {
        name: 'Fabrikam',
        issuer: 'https://login.fabrikam.example',
        clientId: 'kc',
        clientSecret: 'x',
        domains: ['fabrikam.example'],
      },
    );
    expect(other).toMatchObject({ name: 'Fabrikam', domains: ['fabrikam.example'] });
    for (const hint of [PEOPLE.eve.email, 'someone@fabrikam.example']) {
      const browser = new TestBrowser(app());
      const auth = await startAuthorization(browser);
      expectErrorPage(await browser.get(redirectPath(auth.returnUrl, providerId, hint)));
      await expectRefused('redirect', 'hint_not_bound');
    }
  });

  it('sends a malformed link to the error page; a hint without a bound domain is refused', async () => {
    const browser = new TestBrowser(app());
    const auth = await startAuthorization(browser);
    const malformed = [
      redirectPath(auth.returnUrl, 'not-a-guid', PEOPLE.ada.email),
      redirectPath(auth.returnUrl, providerId, `${'a'.repeat(400)}@${BOUND_DOMAIN}`),
      `/api/RedirectToExternalIdentityProvider?externalIdentityProviderGuid=${providerId}`,
    ];
    for (const path of malformed) {
      const sessionsBefore = await sessionCount(db());
      expectErrorPage(await browser.get(path));
      await expectRefused('redirect', 'bad_request');
      expect(await sessionCount(db())).toBe(sessionsBefore);
    }
    expectErrorPage(await browser.get(redirectPath(auth.returnUrl, providerId, 'no-at-sign')));
    await expectRefused('redirect', 'hint_not_bound');
  });

  it('refuses a provider whose discovery fails or names another issuer', async () => {
    for (const issuer of ['http://127.0.0.1:9/', idp.issuer.replace('127.0.0.1', 'localhost')]) {
      const domain = issuer.includes('localhost') ? 'mismatch.example' : 'down.example';
      const added = await addUpstreamProvider(
        { db: db() },
        {
          name: domain,
          issuer,
          clientId: UPSTREAM_CLIENT_ID,
          clientSecret: UPSTREAM_SECRET,
          domains: [domain],
        },
      );
      const browser = new TestBrowser(app());
      const auth = await startAuthorization(browser);
      expectErrorPage(await browser.get(redirectPath(auth.returnUrl, added.id, `x@${domain}`)));
      await expectRefused('redirect', 'upstream_unreachable');
    }
  });
});

/** The federation audit trail so far: what it holds must never include a code, state or secret. */
async function federationTrail(): Promise<string> {
  return JSON.stringify(await db().select().from(auditEvents).where(eq(auditEvents.event, 'federation')));
}

function expectNoSecretIn(trail: string): void {
  expect(trail).not.toMatch(/"(code|state|nonce|codeVerifier)"/);
  expect(trail).not.toContain(UPSTREAM_SECRET);
}

/** A callback whose code is another flow's: refused at the exchange, after the state was read. */
async function swappedCodeCallback() {
  const first = await startedFlow();
  const second = await startedFlow();
  const firstCallback = await upstreamCallback(PEOPLE.ada, first);
  const secondCallback = await upstreamCallback(PEOPLE.ada, second);
  // The second flow's code with the first flow's state, verifier and nonce.
  const code = new URL(secondCallback, 'http://x').searchParams.get('code') ?? '';
  expectErrorPage(await first.browser.get(firstCallback.replace(/code=[^&]+/, `code=${code}`)));
  return first;
}

describe('ExternalIdentityProviderCallback refusals: error page, audit, no session', () => {
  // After every refusal of this block, in whatever order they ran: nothing secret on record.
  afterEach(async () => expectNoSecretIn(await federationTrail()));

  it('refuses a callback without the flow cookie, or with a forged one', async () => {
    const flow = await startedFlow();
    const callback = await upstreamCallback(PEOPLE.ada, flow);
    const interactionOnly = flow.browser.jar
      .header()
      .split('; ')
      .filter((cookie) => !cookie.startsWith('federation-'));
    const genuine = flow.browser.jar
      .header()
      .split('; ')
      .find((cookie) => cookie.startsWith('federation-'));
    if (genuine === undefined) throw new Error('the redirect set no flow cookie');
    const name = genuine.slice(0, genuine.indexOf('='));
    const value = genuine.slice(name.length + 1);
    // A well-formed flow whose signature is missing or wrong: only the signature check refuses it.
    const payload = genuine.slice(0, genuine.lastIndexOf('.'));
    const forgeries = [[], [`${name}=eyJ9.forged`], [payload], [`${payload}.${'A'.repeat(43)}`]];
    // The genuine flow under the name of another state, and the answer carrying that state: a flow
    // serves only the answer to its own state, whatever name it travels under.
    const otherState = 'B'.repeat(43);
    const renamed = [`federation-${otherState}=${value}`];
    const toOtherState = callback.replace(/state=[^&]+/, `state=${otherState}`);
    const attempts = [
      ...forgeries.map((extra) => [extra, callback] as const),
      [renamed, toOtherState] as const,
    ];
    for (const [extra, url] of attempts) {
      const response = await app().inject({
        method: 'GET',
        url,
        headers: { cookie: [...interactionOnly, ...extra].join('; '), 'sec-fetch-site': 'cross-site' },
      });
      expectErrorPage(response);
      await expectRefused('callback', 'no_flow');
    }
    await expectNotSignedIn(flow.browser, flow.auth.returnUrl);
  });

  const errorAnswer = (flow: Awaited<ReturnType<typeof startedFlow>>, error: string) => {
    const state = new URL(flow.authorizationUrl).searchParams.get('state') ?? '';
    return `/api/ExternalIdentityProviderCallback?error=${error}&state=${state}&iss=${encodeURIComponent(idp.issuer)}`;
  };

  it('refuses an error answer of the provider', async () => {
    const flow = await startedFlow();
    expectErrorPage(await flow.browser.get(errorAnswer(flow, 'temporarily_unavailable')));
    // The provider's own code, so the operator can tell a person who declined from a fault.
    await expectRefused('callback', 'upstream_error', 'temporarily_unavailable');
    await expectNotSignedIn(flow.browser, flow.auth.returnUrl);
  });

  it('sends a person who declined upstream (access_denied) back to sign-in, where they were', async () => {
    // The relying party named the address (login_hint): the sign-in page would hand it straight back
    // to the provider the person has just declined, so it comes back without it.
    const flow = await startedFlow(PEOPLE.ada, providerId, { login_hint: PEOPLE.ada.email });
    const hinted = new URL(flow.auth.returnUrl, PUBLIC_URL);
    expect(hinted.searchParams.get('login_hint')).toBe(PEOPLE.ada.email);
    const response = await flow.browser.get(errorAnswer(flow, 'access_denied'));
    expect(response.statusCode).toBe(302);
    const unhinted = new URL(hinted);
    unhinted.searchParams.delete('login_hint');
    expect(unhinted.searchParams.get('product')).not.toBeNull();
    expect(response.headers.location).toBe(
      `${PUBLIC_URL}/?ReturnUrl=${encodeURIComponent(unhinted.pathname + unhinted.search)}`,
    );
    const state = new URL(flow.authorizationUrl).searchParams.get('state');
    expect(response.cookies).toContainEqual(
      expect.objectContaining({ name: `federation-${state}`, value: '' }),
    );
    await expectRefused('callback', 'upstream_error', 'access_denied');
    // Not signed in, and the sign-in goes on: the person may go upstream again, or use another address.
    const again = await flow.browser.get(redirectPath(flow.auth.returnUrl, providerId, PEOPLE.ada.email));
    expect(again.statusCode).toBe(302);
    expect(String(again.headers.location)).toMatch(new RegExp(`^${idp.issuer}`));
    await expectNotSignedIn(flow.browser, flow.auth.returnUrl);
  });

  it('spends no flow on an answer that names a state this browser did not start; replays are refused', async () => {
    const flow = await startedFlow();
    const callback = await upstreamCallback(PEOPLE.ada, flow);
    for (const state of ['another-state-value', '..%2Fx', 'x'.repeat(129)]) {
      expectErrorPage(await flow.browser.get(callback.replace(/state=[^&]+/, `state=${state}`)));
      await expectRefused('callback', 'no_flow');
    }
    // A state that could not name a cookie the service sets finds none, even one sent under that name.
    flow.browser.jar.set('federation-a b', 'x');
    expectErrorPage(await flow.browser.get(callback.replace(/state=[^&]+/, 'state=a%20b')));
    await expectRefused('callback', 'no_flow');
    // A forged answer cannot cut a sign-in short: the genuine one still signs in, once.
    const back = await flow.browser.get(callback);
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe(`${PUBLIC_URL}${flow.auth.returnUrl}`);
    expectErrorPage(await flow.browser.get(callback));
    await expectRefused('callback', 'no_flow');
  });

  it('keeps a flow for each of the 3 newest trips upstream of one browser; each further one retires the oldest', async () => {
    const first = await startedFlow();
    const trips = [first];
    for (let trip = 2; trip <= 4; trip++) {
      const redirect = await first.browser.get(
        redirectPath(first.auth.returnUrl, providerId, PEOPLE.ada.email),
      );
      trips.push({ ...first, redirect, authorizationUrl: String(redirect.headers.location) });
    }
    const flowCookies = first.browser.jar
      .header()
      .split('; ')
      .filter((cookie) => cookie.startsWith('federation-'));
    expect(flowCookies).toHaveLength(3);
    // A flow cookie that does not read (forged, or signed with a key no longer in use) goes at the next
    // trip; one under a name the service never sets (planted by a neighbouring site) is left alone.
    first.browser.jar.set('federation-forged', 'eyJ9.forged');
    first.browser.jar.set('federation-a b', 'planted');
    const fifth = await first.browser.get(redirectPath(first.auth.returnUrl, providerId, PEOPLE.ada.email));
    expect(fifth.cookies).toContainEqual(expect.objectContaining({ name: 'federation-forged', value: '' }));
    expect(first.browser.jar.get('federation-forged')).toBeUndefined();
    expect(fifth.statusCode).toBe(302);
    expect(fifth.cookies.map((cookie) => cookie.name)).not.toContain('federation-a b');
    trips.push({ ...first, redirect: fifth, authorizationUrl: String(fifth.headers.location) });
    // The 5th retired the 2nd: of the five, the 3 newest are left.
    const [oldest, second, third] = await Promise.all(
      trips.slice(0, 3).map((trip) => upstreamCallback(PEOPLE.ada, trip)),
    );
    for (const retired of [oldest, second]) {
      expectErrorPage(await first.browser.get(String(retired)));
      await expectRefused('callback', 'no_flow');
    }
    const back = await first.browser.get(String(third));
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe(`${PUBLIC_URL}${first.auth.returnUrl}`);
  });

  it('refuses a code that does not redeem with this flow (token exchange or ID token validation fails)', async () => {
    const first = await swappedCodeCallback();
    // The provider refused the exchange (the verifier is not the code's): its OAuth error on record.
    await expectRefused('callback', 'token_invalid', 'invalid_grant');
    await expectNotSignedIn(first.browser, first.auth.returnUrl);
  });

  it('refuses an ID token whose signature the keys the provider publishes do not verify', async () => {
    // Past the kept configuration: this flow's callback fetches the key set.
    aheadMs += CONFIGURATION_KEPT_MS;
    const flow = await startedFlow();
    const callback = await upstreamCallback(PEOPLE.ada, flow);
    idp.publishForeignKey(true);
    try {
      expectErrorPage(await flow.browser.get(callback));
    } finally {
      idp.publishForeignKey(false);
    }
    // openid-client's code for a response that fails its checks; the signature is what changed here.
    await expectRefused('callback', 'token_invalid', 'OAUTH_INVALID_RESPONSE');
    await expectNotSignedIn(flow.browser, flow.auth.returnUrl);
    // The same provider's own keys verify the next sign-in's token, once they are fetched again: the
    // key set kept held a key of the token's `kid`, so openid-client did not look again.
    aheadMs += CONFIGURATION_KEPT_MS;
    const next = await startedFlow();
    const signedIn = await next.browser.get(await upstreamCallback(PEOPLE.ada, next));
    expect(signedIn.statusCode).toBe(302);
    expect(await lastFederationAudit(db())).toMatchObject({ outcome: 'success' });
  });

  it('puts a wrong client secret on record as the provider answered it (invalid_client)', async () => {
    const [provider] = await db()
      .select()
      .from(upstreamProviders)
      .where(eq(upstreamProviders.id, providerId));
    const secret = String(provider?.clientSecret);
    await db()
      .update(upstreamProviders)
      .set({ clientSecret: 'not-the-secret-0123456789' })
      .where(eq(upstreamProviders.id, providerId));
    try {
      const flow = await startedFlow();
      const callback = await upstreamCallback(PEOPLE.ada, flow);
      logged.length = 0;
      const refused = await flow.browser.get(callback);
      expectErrorPage(refused);
      await expectRefused('callback', 'token_invalid', 'invalid_client');
      // The log says the same under the request's reference, and holds nothing of the answer's secrets.
      const lines = logged.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines).toContainEqual(
        expect.objectContaining({
          msg: 'upstream sign-in refused',
          reference: refused.headers['x-request-id'],
          step: 'callback',
          reason: 'token_invalid',
          cause: 'invalid_client',
          providerId,
        }),
      );
      const params = new URL(callback, PUBLIC_URL).searchParams;
      for (const secret of [params.get('code'), params.get('state'), 'not-the-secret-0123456789']) {
        expect(secret).toBeTruthy();
        expect(logged.join('\n')).not.toContain(String(secret));
      }
      await expectNotSignedIn(flow.browser, flow.auth.returnUrl);
    } finally {
      await db()
        .update(upstreamProviders)
        .set({ clientSecret: secret })
        .where(eq(upstreamProviders.id, providerId));
    }
  });

  it('refuses an address the provider has not verified, and one of a domain not bound to it, however near its spelling', async () => {
    for (const [who, reason] of [
      [PEOPLE.bob, 'email_unverified'],
      [PEOPLE.eve, 'domain_not_bound'],
      [PEOPLE.fay, 'domain_not_bound'],
      [PEOPLE.gus, 'domain_not_bound'],
    ] as const) {
      const flow = await startedFlow(PEOPLE.ada);
      const sessions = await sessionCount(db());
      expectErrorPage(await flow.browser.get(await upstreamCallback(who, flow)));
      await expectRefused('callback', reason);
      expect(await sessionCount(db())).toBe(sessions);
      const [account] = await db().select().from(accounts).where(eq(accounts.email, who.email));
      expect(account).toBeUndefined();
      await expectNotSignedIn(flow.browser, flow.auth.returnUrl);
    }
  });

  it('refuses when the sign-in interaction is gone by the time the provider answers', async () => {
    const flow = await startedFlow();
    const callback = await upstreamCallback(PEOPLE.ada, flow);
    const flowOnly = flow.browser.jar
      .header()
      .split('; ')
      .filter((cookie) => cookie.startsWith('federation-'));
    const sessions = await sessionCount(db());
    const response = await app().inject({
      method: 'GET',
      url: callback,
      headers: { cookie: flowOnly.join('; ') },
    });
    expectErrorPage(response);
    await expectRefused('callback', 'interaction_gone');
    expect(await sessionCount(db())).toBe(sessions);
  });

  it('refuses when the provider was removed meanwhile', async () => {
    const added = await addUpstreamProvider(
      { db: db() },
      {
        name: 'Short-lived',
        issuer: idp.issuer,
        clientId: UPSTREAM_CLIENT_ID,
        clientSecret: UPSTREAM_SECRET,
        domains: ['short.example'],
      },
    );
    const browser = new TestBrowser(app());
    const auth = await startAuthorization(browser);
    const redirect = await browser.get(redirectPath(auth.returnUrl, added.id, 'x@short.example'));
    const flow = { browser, auth, redirect, authorizationUrl: String(redirect.headers.location) };
    const callback = await upstreamCallback(PEOPLE.ada, flow);
    await db().delete(upstreamProviders).where(eq(upstreamProviders.id, added.id));
    expectErrorPage(await browser.get(callback));
    await expectRefused('callback', 'unknown_provider');
    await expectNotSignedIn(browser, auth.returnUrl);
  });

  it('refuses a disabled account and one linked to another provider, without changing them', async () => {
    const dave = await createAccount(db(), PEOPLE.dave.email, null, 'Dave Local');
    await db().update(accounts).set({ disabledAt: new Date() }).where(eq(accounts.id, dave.id));
    const erin = await createAccount(db(), PEOPLE.erin.email, null, 'Erin Local');
    const elsewhere = '3f1c2a9e-0000-4000-8000-000000000002';
    await db()
      .update(accounts)
      .set({ externalIdpId: elsewhere, externalSubject: 'x' })
      .where(eq(accounts.id, erin.id));
    for (const [who, reason] of [
      [PEOPLE.dave, 'account_disabled'],
      [PEOPLE.erin, 'linked_elsewhere'],
    ] as const) {
      const flow = await startedFlow(who);
      expectErrorPage(await flow.browser.get(await upstreamCallback(who, flow)));
      await expectRefused('callback', reason);
      await expectNotSignedIn(flow.browser, flow.auth.returnUrl);
    }
    const [erinAfter] = await db().select().from(accounts).where(eq(accounts.id, erin.id));
    expect(erinAfter?.externalIdpId).toBe(elsewhere);
  });

  it('never writes a code, state or secret into the audit trail', async () => {
    // A refusal at the token exchange, which had the code, state, nonce, verifier and secret in hand.
    await swappedCodeCallback();
    const trail = await federationTrail();
    expectNoSecretIn(trail);
    expect(trail).toContain('"reason":"token_invalid"');
  });
});
