import { loginResponse } from '@keycard/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import * as oidc from 'openid-client';
import { CLIENT_ID, REDIRECT_URI, TestBrowser } from './oidc-flow.ts';

/**
 * A relying party built with openid-client (the library real Node clients use), talking to the
 * app in-process: its fetch is the app's inject, so the provider sees exactly the requests a
 * client over the network would send. Over https it is as if behind a proxy (TRUST_PROXY=true,
 * X-Forwarded-Proto: https): the test configuration's PUBLIC_URL is then RP_PUBLIC_URL.
 */

/** The test configuration's issuer: PUBLIC_URL (http://localhost:3000) + /oidc. */
export const ISSUER = 'http://localhost:3000/oidc';

/** What a proxy in front of the service adds: the service is reached as RP_PUBLIC_URL. */
export const RP_HEADERS = { 'x-forwarded-proto': 'https', host: 'keycard.example' };
export const RP_PUBLIC_URL = 'https://keycard.example';

/** openid-client's fetch, answered by `app.inject`; an https URL arrives as through the proxy. */
export function fetchVia(app: FastifyInstance): oidc.CustomFetch {
  return async (url, options) => {
    const target = new URL(url);
    const headers = Object.fromEntries(
      new Headers(options.headers as ConstructorParameters<typeof Headers>[0]),
    );
    const response = await app.inject({
      method: (options.method ?? 'GET') as 'GET',
      url: target.pathname + target.search,
      headers: {
        ...headers,
        host: target.host,
        ...(target.protocol === 'https:' ? { 'x-forwarded-proto': 'https' } : {}),
      },
      ...(options.body === undefined || options.body === null ? {} : { payload: String(options.body) }),
    });
    return responseOf(response);
  };
}

function responseOf(response: LightMyRequestResponse): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
  }
  const empty = response.statusCode === 204 || response.statusCode === 304;
  return new Response(empty ? null : response.rawPayload, { status: response.statusCode, headers });
}

/** A relying party of `clientId` that discovered the provider. */
export function relyingParty(
  app: FastifyInstance,
  clientId: string,
  auth: oidc.ClientAuth = oidc.None(),
  metadata: Partial<oidc.ClientMetadata> = {},
): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(ISSUER), clientId, metadata, auth, {
    [oidc.customFetch]: fetchVia(app),
    execute: [oidc.allowInsecureRequests],
  });
}

export interface Person {
  readonly email: string;
  readonly password: string;
}

/**
 * A browser that sends itself to `authorizationUrl`, signs in as `person` on the SPA's page when it
 * is asked to, and follows the provider back to the client: the last answer, a redirect to
 * `redirectUri` (or, for response_mode=form_post, the page that posts there).
 */
export async function authorizeInBrowser(
  app: FastifyInstance,
  authorizationUrl: URL,
  person: Person,
  redirectUri = authorizationUrl.searchParams.get('redirect_uri') ?? '',
  browser = new TestBrowser(app),
): Promise<LightMyRequestResponse> {
  let response = await browser.get(authorizationUrl.pathname + authorizationUrl.search);
  for (let hop = 0; hop < 8; hop++) {
    const location = response.headers.location;
    if (typeof location !== 'string' || location.startsWith(redirectUri)) return response;
    const next = new URL(location, ISSUER);
    const returnUrl = next.pathname === '/' ? next.searchParams.get('ReturnUrl') : null;
    if (returnUrl !== null) {
      await browser.loadSpa();
      const login = await browser.post('/api/login', {
        Username: person.email,
        Password: person.password,
        ReturnUrl: returnUrl,
      });
      if (!loginResponse.parse(login.json()).isAuthenticated)
        throw new Error(`${person.email} could not sign in`);
      response = await browser.get(returnUrl);
    } else {
      response = await browser.get(next.pathname + next.search);
    }
  }
  throw new Error(`the sign-in did not come back to ${redirectUri}`);
}

/** Where the provider sent the browser back to the client (a redirect's Location). */
export function callbackOf(response: LightMyRequestResponse): URL {
  const location = response.headers.location;
  if (typeof location !== 'string') throw new Error(`no redirect: ${response.statusCode} ${response.body}`);
  return new URL(location);
}

export interface CodeFlow {
  readonly parameters: Record<string, string>;
  readonly checks: oidc.AuthorizationCodeGrantChecks;
}

/**
 * The parameters of a code flow with PKCE (S256), state and nonce, and what the callback must match.
 * A request for offline_access says prompt=consent, as OIDC Core §11 asks (no screen follows).
 */
export async function codeFlow(redirectUri: string, scope: string): Promise<CodeFlow> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  return {
    parameters: {
      redirect_uri: redirectUri,
      scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...(scope.split(' ').includes('offline_access') ? { prompt: 'consent' } : {}),
    },
    checks: { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce },
  };
}

/** Signs `person` in through `config`'s client and redeems the code: the token endpoint's answer. */
export async function signInWith(
  app: FastifyInstance,
  config: oidc.Configuration,
  person: Person,
  { redirectUri, scope }: { redirectUri: string; scope: string },
) {
  const flow = await codeFlow(redirectUri, scope);
  const back = await authorizeInBrowser(app, oidc.buildAuthorizationUrl(config, flow.parameters), person);
  return oidc.authorizationCodeGrant(config, callbackOf(back), flow.checks);
}

/** The test client (a public client using PKCE) as openid-client discovers it; ID-token signatures checked. */
export async function discoverRelyingParty(app: FastifyInstance): Promise<oidc.Configuration> {
  const config = await oidc.discovery(new URL(`${RP_PUBLIC_URL}/oidc`), CLIENT_ID, undefined, oidc.None(), {
    [oidc.customFetch]: fetchVia(app),
  });
  // Verify the ID token's JWS against the provider's /jwks, as a relying party that keeps tokens must.
  oidc.enableNonRepudiationChecks(config);
  return config;
}

/**
 * One sign-in from the relying party's authorization URL through the SPA's login to its callback,
 * then the code exchanged by openid-client; answers its tokens (ID token verified).
 */
export async function signInThrough(
  config: oidc.Configuration,
  browser: TestBrowser,
  credentials: { email: string; password: string },
) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const toSignIn = await browser.get(url.pathname + url.search);
  const returnUrl = new URL(String(toSignIn.headers.location), RP_PUBLIC_URL).searchParams.get('ReturnUrl');
  if (!returnUrl) throw new Error(`authorize answered ${toSignIn.statusCode} ${toSignIn.body}`);
  await browser.loadSpa();
  const login = await browser.post('/api/login', {
    Username: credentials.email,
    Password: credentials.password,
    ReturnUrl: returnUrl,
  });
  if (login.json<{ isAuthenticated?: boolean }>().isAuthenticated !== true) {
    throw new Error(`login answered ${login.statusCode} ${login.body}`);
  }
  let location = returnUrl;
  for (let hop = 0; hop < 5 && !location.startsWith(REDIRECT_URI); hop++) {
    const target = new URL(location, RP_PUBLIC_URL);
    location = String((await browser.get(target.pathname + target.search)).headers.location);
  }
  return oidc.authorizationCodeGrant(config, new URL(location), {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
}

/** The JWS header of a compact JWT. */
export function headerOf(jwt: string): { alg: string; kid: string } {
  const [header = ''] = jwt.split('.');
  return JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg: string; kid: string };
}
