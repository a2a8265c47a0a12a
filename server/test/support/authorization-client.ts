import type { FastifyInstance } from 'fastify';
import * as oidc from 'openid-client';
import { expect } from 'vitest';
import { CLIENT_ID, REDIRECT_URI, TestBrowser } from './oidc-flow.ts';
import { fetchVia } from './relying-party.ts';

/** The test configuration's PUBLIC_URL; the issuer is it plus /oidc. */
export const PUBLIC_URL = 'http://localhost:3000';
export const ISSUER = `${PUBLIC_URL}/oidc`;

/**
 * The test relying party as a real one builds its requests: openid-client v6, configured by the
 * provider's discovery document, public client with PKCE (oidc-flow.ts registerTestClient).
 */
export async function relyingParty(app: FastifyInstance): Promise<oidc.Configuration> {
  const configuration = await oidc.discovery(new URL(ISSUER), CLIENT_ID, undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
    [oidc.customFetch]: fetchVia(app),
  });
  configuration[oidc.customFetch] = fetchVia(app);
  return configuration;
}

export interface RelyingPartyRequest {
  readonly url: URL;
  readonly verifier: string;
  readonly state: string;
}

/** An authorization URL with PKCE S256 and state, plus whatever `extra` asks for (login_hint, prompt …). */
export async function authorizationUrl(
  configuration: oidc.Configuration,
  extra: Record<string, string> = {},
): Promise<RelyingPartyRequest> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  });
  return { url, verifier, state };
}

/** The browser follows the URL to the provider; answers the provider's response. */
export function follow(browser: TestBrowser, url: URL) {
  return browser.get(url.pathname + url.search);
}

/** The ReturnUrl of the sign-in page the provider sent the browser to, and the parameters it carries. */
export function signInPageOf(location: string | undefined) {
  const page = new URL(String(location), PUBLIC_URL);
  const returnUrl = page.searchParams.get('ReturnUrl') ?? '';
  const carried = new URL(returnUrl, PUBLIC_URL).searchParams;
  return { page, returnUrl, carried };
}

/**
 * Sends a browser to an authorization URL the provider refuses to the client: the answer must reach
 * the registered redirect URI with `iss` (RFC 9207) and the request's state, and openid-client must
 * accept it as the provider's and report its error. Answers the error code and the rejected grant.
 */
export async function refusedToRedirectUri(
  app: FastifyInstance,
  configuration: oidc.Configuration,
  { url, verifier, state }: { url: URL; verifier: string; state: string },
) {
  const response = await follow(new TestBrowser(app), url);
  expect(response.statusCode).toBe(303);
  const answer = new URL(String(response.headers.location));
  expect(answer.origin + answer.pathname).toBe(REDIRECT_URI);
  expect(answer.searchParams.get('iss')).toBe(ISSUER);
  expect(answer.searchParams.get('state')).toBe(state);
  const grant = oidc.authorizationCodeGrant(configuration, answer, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  await expect(grant).rejects.toBeInstanceOf(oidc.AuthorizationResponseError);
  return { answer, error: answer.searchParams.get('error'), grant };
}
