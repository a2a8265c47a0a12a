import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { addUpstreamProvider } from '../src/provisioning/provider-operations.ts';
import type { Db } from '../src/store/database.ts';
import { auditEvents, oidcPayloads } from '../src/store/tables/index.ts';
import { startAuthorization, TestBrowser } from './support/oidc-flow.ts';
import { startUpstreamIdp, type UpstreamIdp, type UpstreamPerson } from './support/upstream-idp.ts';

/** Keycard's PUBLIC_URL in tests (config.ts development default) and its upstream callback. */
export const PUBLIC_URL = 'http://localhost:3000';
export const CALLBACK_URL = `${PUBLIC_URL}/api/ExternalIdentityProviderCallback`;
export const UPSTREAM_CLIENT_ID = 'keycard';
export const UPSTREAM_SECRET = 'upstream-secret-0123456789';
export const BOUND_DOMAIN = 'contoso.example';

export const PEOPLE = {
  ada: person('ada', `ada@${BOUND_DOMAIN}`, true, 'Ada Upstream'),
  bob: person('bob', `bob@${BOUND_DOMAIN}`, false, 'Bob Unverified'),
  carol: person('carol', `carol@${BOUND_DOMAIN}`, true, 'Carol Upstream'),
  dave: person('dave', `dave@${BOUND_DOMAIN}`, true, 'Dave Disabled'),
  erin: person('erin', `erin@${BOUND_DOMAIN}`, true, 'Erin Elsewhere'),
  eve: person('eve', 'eve@elsewhere.example', true, 'Eve Unbound'),
  // Spellings of the bound domain that a URL's host parser reads as it, and an address never does.
  fay: person('fay', `fay@${BOUND_DOMAIN.replace('.', '\u3002')}`, true, 'Fay Ideographic Stop'),
  gus: person('gus', `gus@${BOUND_DOMAIN.replace('.', '%2e')}`, true, 'Gus Escaped Dot'),
} as const;

function person(name: string, email: string, emailVerified: boolean, displayName: string): UpstreamPerson {
  return { sub: `sub-${name}`, email, emailVerified, name: displayName, password: `${name}-upstream-pw` };
}

/** Starts the upstream provider and registers it with Keycard for BOUND_DOMAIN; answers its GUID. */
export async function startRegisteredUpstream(db: Db): Promise<{ idp: UpstreamIdp; providerId: string }> {
  const idp = await startUpstreamIdp({
    clientId: UPSTREAM_CLIENT_ID,
    clientSecret: UPSTREAM_SECRET,
    redirectUri: CALLBACK_URL,
    people: Object.values(PEOPLE),
  });
  const added = await addUpstreamProvider(
    { db },
    {
      name: 'Contoso',
      issuer: idp.issuer,
      clientId: UPSTREAM_CLIENT_ID,
      clientSecret: UPSTREAM_SECRET,
      domains: [BOUND_DOMAIN],
    },
  );
  return { idp, providerId: added.id };
}

/** The path and query of a URL on Keycard's origin, as app.inject takes them. */
export function localPart(url: string): string {
  const parsed = new URL(url, PUBLIC_URL);
  expect(parsed.origin).toBe(PUBLIC_URL);
  return parsed.pathname + parsed.search;
}

export function redirectPath(returnUrl: string, providerId: string, loginHint?: string): string {
  const query = new URLSearchParams({ returnUrl, externalIdentityProviderGuid: providerId });
  if (loginHint !== undefined) query.set('login_hint', loginHint);
  return `/api/RedirectToExternalIdentityProvider?${query}`;
}

/**
 * A browser on the upstream provider's origin: real HTTP with its own cookies, following the
 * provider's redirects until it sends the browser back to Keycard's callback.
 */
export class UpstreamBrowser {
  private readonly cookies = new Map<string, string>();

  private async request(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.cookieHeader() },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const equals = pair.indexOf('=');
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Opens the authorization URL and signs in on the provider's page; answers Keycard's callback URL. */
  async signIn(authorizationUrl: string, who: UpstreamPerson): Promise<string> {
    let response = await this.request(authorizationUrl);
    let location = new URL(response.headers.get('location') ?? '', authorizationUrl);
    expect(location.pathname).toMatch(/^\/interaction\//);
    response = await this.request(location.href);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Upstream sign-in');
    response = await this.request(`${location.href}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: who.email, password: who.password }).toString(),
    });
    for (let hop = 0; hop < 5 && response.status >= 300 && response.status < 400; hop++) {
      location = new URL(response.headers.get('location') ?? '', location);
      if (location.href.startsWith(CALLBACK_URL)) return location.href;
      response = await this.request(location.href);
    }
    throw new Error(`the upstream provider did not return to Keycard (${response.status})`);
  }
}

/** A refused step: a 302 to the error page on PUBLIC_URL (DESIGN §2), and no flow cookie left behind. */
export function expectErrorPage(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(302);
  expect(response.headers.location).toBe(`${PUBLIC_URL}/error`);
  for (const flowCookie of response.cookies.filter((cookie) => cookie.name.startsWith('federation'))) {
    expect(flowCookie.value, flowCookie.name).toBe('');
  }
}

/** The newest federation audit event; refusals name their reason, none holds a token or code. */
export async function lastFederationAudit(db: Db) {
  const [row] = await db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.event, 'federation'))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  return row;
}

export async function sessionCount(db: Db): Promise<number> {
  return (await db.select().from(oidcPayloads).where(eq(oidcPayloads.type, 'Session'))).length;
}

/**
 * Resuming the interaction does not sign anyone in: the provider sends the browser back to the
 * sign-in page instead of to the relying party.
 */
export async function expectNotSignedIn(browser: TestBrowser, returnUrl: string): Promise<void> {
  const response = await browser.get(returnUrl);
  expect(response.statusCode).toBe(303);
  expect(String(response.headers.location)).toMatch(/^\/\?ReturnUrl=/);
}

export async function accountAudit(db: Db, accountId: string) {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.event, 'federation'), eq(auditEvents.accountId, accountId)));
}

/**
 * A sign-in the relying party started (with `parameters`), sent to the upstream provider `providerId`
 * with `who`'s address as the hint: the browser, the authorization and the upstream URL.
 */
export async function sentUpstream(
  app: FastifyInstance,
  providerId: string,
  who: UpstreamPerson,
  parameters: Record<string, string> = {},
) {
  const browser = new TestBrowser(app);
  const auth = await startAuthorization(browser, parameters);
  const redirect = await browser.get(redirectPath(auth.returnUrl, providerId, who.email));
  expect(redirect.statusCode).toBe(302);
  return { browser, auth, authorizationUrl: new URL(String(redirect.headers.location)) };
}

/** As sentUpstream, then `who` signs in there and the browser comes back to Keycard's callback. */
export async function throughUpstream(
  app: FastifyInstance,
  providerId: string,
  who: UpstreamPerson,
  parameters: Record<string, string> = {},
) {
  const flow = await sentUpstream(app, providerId, who, parameters);
  const callback = await new UpstreamBrowser().signIn(flow.authorizationUrl.href, who);
  return { ...flow, back: await flow.browser.get(localPart(callback)) };
}

export type { FastifyInstance };
