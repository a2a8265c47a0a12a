import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clockReading } from '../src/store/clock.ts';
import { upstreamProviders } from '../src/store/tables/index.ts';
import {
  expectErrorPage,
  lastFederationAudit,
  localPart,
  PEOPLE,
  redirectPath,
  sentUpstream,
  startRegisteredUpstream,
  throughUpstream,
  UPSTREAM_SECRET,
  UpstreamBrowser,
} from './federation-kit.ts';
import { registerTestClient, startAuthorization, TestBrowser } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';
import type { UpstreamIdp } from './support/upstream-idp.ts';

/**
 * An instance keeps a provider's discovery document, and with it the key set its ID tokens are
 * checked with, for 5 minutes (upstream-client.ts): sign-ins meanwhile send the provider only what
 * the person's own sign-in needs.
 */

const DISCOVERY = '/.well-known/openid-configuration';
const KEYS = '/jwks';
/** How long a provider's configuration is kept: 5 minutes. */
const KEPT_MS = 5 * 60_000;

let idp: UpstreamIdp;
let providerId: string;
/** The service's clock runs this far ahead of the machine's: the upstream provider's tokens stay valid. */
let aheadMs = 0;

const service = useTestService({
  clock: clockReading(() => Date.now() + aheadMs),
  setUp: async ({ db }) => {
    await registerTestClient(db);
    ({ idp, providerId } = await startRegisteredUpstream(db));
  },
  tearDown: () => idp.close(),
});
const app = () => service().app;

/** What the provider was asked for so far: discovery documents and key sets. */
const asked = () => ({ discovery: idp.requestsFor(DISCOVERY), keys: idp.requestsFor(KEYS) });

async function signedIn() {
  const { back } = await throughUpstream(app(), providerId, PEOPLE.ada);
  expect(back.statusCode).toBe(302);
  expect(await lastFederationAudit(service().db)).toMatchObject({ outcome: 'success' });
}

/** A sign-in refused at the callback, for `reason` and `cause` as the audit log has it. */
async function refusedAtCallback(reason: string, cause?: string) {
  const { back } = await throughUpstream(app(), providerId, PEOPLE.ada);
  expectErrorPage(back);
  expect(await lastFederationAudit(service().db)).toMatchObject({
    outcome: 'refused',
    detail: { step: 'callback', reason, ...(cause === undefined ? {} : { cause }) },
  });
}

/** Moves the service's clock past the kept configuration's 5 minutes. */
function afterKeptConfiguration() {
  aheadMs += KEPT_MS;
}

describe('upstream provider configuration kept for 5 minutes (DESIGN §1 Federation)', () => {
  it('reads the discovery document and the key set once for the sign-ins of 5 minutes, and again after', async () => {
    afterKeptConfiguration();
    const before = asked();
    await signedIn();
    // The redirect read the document, the callback's ID token the keys.
    expect(asked()).toEqual({ discovery: before.discovery + 1, keys: before.keys + 1 });
    // A minute short of the 5 (the unit test of upstreamConfigurations crosses it to the millisecond).
    aheadMs += KEPT_MS - 60_000;
    await signedIn();
    expect(asked()).toEqual({ discovery: before.discovery + 1, keys: before.keys + 1 });
    aheadMs += 60_000;
    await signedIn();
    expect(asked()).toEqual({ discovery: before.discovery + 2, keys: before.keys + 2 });
  });

  it('reads it again for a provider registered anew: another client secret is a configuration of its own', async () => {
    await signedIn();
    const before = asked();
    const setSecret = (clientSecret: string) =>
      service()
        .db.update(upstreamProviders)
        .set({ clientSecret })
        .where(eq(upstreamProviders.id, providerId));
    await setSecret('not-the-secret-0123456789');
    try {
      // The provider refuses the wrong secret at the token endpoint: it was sent, not the kept one.
      await refusedAtCallback('token_invalid', 'invalid_client');
      expect(asked().discovery).toBe(before.discovery + 1);
    } finally {
      await setSecret(UPSTREAM_SECRET);
    }
    await signedIn();
    expect(asked().discovery).toBe(before.discovery + 2);
  });

  it('keeps no failed discovery: the next sign-in asks again and goes through', async () => {
    afterKeptConfiguration();
    idp.dropRequestsFor(DISCOVERY, true);
    const before = asked();
    try {
      const browser = new TestBrowser(app());
      const auth = await startAuthorization(browser);
      expectErrorPage(await browser.get(redirectPath(auth.returnUrl, providerId, PEOPLE.ada.email)));
      expect(await lastFederationAudit(service().db)).toMatchObject({
        outcome: 'refused',
        detail: { step: 'redirect', reason: 'upstream_unreachable' },
      });
    } finally {
      idp.dropRequestsFor(DISCOVERY, false);
    }
    await signedIn();
    expect(asked().discovery).toBe(before.discovery + 2);
  });

  it('records a discovery that fails between the redirect and the callback as the provider out of reach', async () => {
    afterKeptConfiguration();
    const flow = await sentUpstream(app(), providerId, PEOPLE.ada);
    const callback = await new UpstreamBrowser().signIn(flow.authorizationUrl.href, PEOPLE.ada);
    // The redirect's configuration is too old by the time the provider sends the person back.
    afterKeptConfiguration();
    idp.dropRequestsFor(DISCOVERY, true);
    try {
      expectErrorPage(await flow.browser.get(localPart(callback)));
    } finally {
      idp.dropRequestsFor(DISCOVERY, false);
    }
    expect(await lastFederationAudit(service().db)).toMatchObject({
      outcome: 'refused',
      detail: { step: 'callback', reason: 'upstream_unreachable', cause: 'UND_ERR_SOCKET' },
    });
  });

  it('records a key set that cannot be fetched as the provider out of reach, not as a bad token, and fetches it at the next sign-in', async () => {
    afterKeptConfiguration();
    idp.dropRequestsFor(KEYS, true);
    try {
      // The connection closed unanswered: undici's word for it.
      await refusedAtCallback('upstream_unreachable', 'UND_ERR_SOCKET');
    } finally {
      idp.dropRequestsFor(KEYS, false);
    }
    const before = asked();
    await signedIn();
    // Within the document's 5 minutes: only the keys are fetched, which failed before.
    expect(asked()).toEqual({ discovery: before.discovery, keys: before.keys + 1 });
  });
});
