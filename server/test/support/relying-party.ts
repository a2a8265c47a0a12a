import { loginResponse } from '@keycard/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import * as oidc from 'openid-client';
import { TestBrowser } from './oidc-flow.ts';

/**
 * A relying party built with openid-client (the library real Node clients use), talking to the
 * app in-process: its fetch is the app's inject, so the provider sees exactly the requests a
 * client over the network would send.
 */

/** The test configuration's issuer: PUBLIC_URL (http://localhost:3000) + /oidc. */
export const ISSUER = 'http://localhost:3000/oidc';

/** openid-client's fetch, answered by `app.inject`. */
export function fetchVia(app: FastifyInstance): oidc.CustomFetch {
  return async (url, options) => {
    const target = new URL(url);
    const headers = Object.fromEntries(
      new Headers(options.headers as ConstructorParameters<typeof Headers>[0]),
    );
    const response = await app.inject({
      method: (options.method ?? 'GET') as 'GET',
      url: target.pathname + target.search,
      headers: { ...headers, host: target.host },
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
