import type { FastifyInstance } from 'fastify';
import * as oidc from 'openid-client';
import type { Db } from '../../src/store/database.ts';
import { oidcClients } from '../../src/store/tables/index.ts';
import { createAccount, REDIRECT_URI, TestBrowser } from './oidc-flow.ts';
import { fetchVia, ISSUER } from './relying-party.ts';

/**
 * A confidential relying party (client_secret_basic) built on openid-client 6, the library real Node
 * relying parties use, talking to the app through `inject` (its customFetch), so what it accepts is
 * what a real one would; its fetch and issuer are relying-party.ts's.
 */

export const CLIENT_SECRET = 'relying-party-secret-0123456789abcdef';

/** A confidential client (client_secret_basic) registered as the admin doors would. */
export async function registerConfidentialClient(
  db: Db,
  clientId: string,
  extra: Partial<typeof oidcClients.$inferInsert> = {},
): Promise<void> {
  await db.insert(oidcClients).values({
    clientId,
    productName: 'Planner',
    clientSecret: CLIENT_SECRET,
    redirectUris: [REDIRECT_URI],
    postLogoutRedirectUris: [],
    grantTypes: ['authorization_code'],
    tokenEndpointAuthMethod: 'client_secret_basic',
    ...extra,
  });
}

/** openid-client's configuration of `clientId` from the provider's discovery document. */
export function relyingParty(app: FastifyInstance, clientId: string): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(ISSUER), clientId, undefined, oidc.ClientSecretBasic(CLIENT_SECRET), {
    execute: [oidc.allowInsecureRequests],
    [oidc.customFetch]: fetchVia(app),
  });
}

/** Follows the resume path to the relying party's callback and answers that whole URL. */
async function resumeToCallback(browser: TestBrowser, resumePath: string): Promise<URL> {
  let response = await browser.get(resumePath);
  for (let hop = 0; hop < 5 && response.statusCode >= 300 && response.statusCode < 400; hop++) {
    const location = new URL(String(response.headers.location), 'http://localhost:3000');
    if (location.href.startsWith(REDIRECT_URI)) return location;
    response = await browser.get(location.pathname + location.search);
  }
  throw new Error(`resume ended at ${response.statusCode} ${response.headers.location ?? response.body}`);
}

let accounts = 0;

/**
 * A person signs in through the relying party: openid-client builds the authorization request (PKCE,
 * state, extra parameters such as `resource`), the browser signs in on the SPA's API, and openid-client
 * redeems the code. Answers its token response and the browser (holding the session).
 */
export async function signInThrough(
  { app, db }: { app: FastifyInstance; db: Db },
  config: oidc.Configuration,
  parameters: Record<string, string> = {},
) {
  const email = `person-${++accounts}-${Date.now()}@example.com`;
  await createAccount(db, email, 'Correct-Horse-42', 'Grace Hopper');
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const authorize = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...parameters,
  });
  const browser = new TestBrowser(app);
  const start = await browser.get(authorize.pathname + authorize.search);
  const returnUrl = new URL(String(start.headers.location), 'http://localhost:3000').searchParams.get(
    'ReturnUrl',
  );
  if (!returnUrl) throw new Error(`authorize answered ${start.statusCode} ${start.body}`);
  await browser.loadSpa();
  const login = await browser.post('/api/login', {
    Username: email,
    Password: 'Correct-Horse-42',
    ReturnUrl: returnUrl,
  });
  if (login.json<{ isAuthenticated: boolean }>().isAuthenticated !== true) throw new Error(login.body);
  const callback = await resumeToCallback(browser, returnUrl);
  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return { tokens, browser, email };
}
