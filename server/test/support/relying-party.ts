import type { FastifyInstance } from 'fastify';
import * as oidc from 'openid-client';
import { CLIENT_ID, REDIRECT_URI, type TestBrowser } from './oidc-flow.ts';

/**
 * A relying party built on openid-client, the library real ones use, talking to the app through
 * `inject` as if over HTTPS behind a proxy (TRUST_PROXY=true, X-Forwarded-Proto: https).
 */
export const RP_HEADERS = { 'x-forwarded-proto': 'https', host: 'keycard.example' };
export const RP_PUBLIC_URL = 'https://keycard.example';

function injectedFetch(app: FastifyInstance): oidc.CustomFetch {
  return async (url, options) => {
    const target = new URL(url);
    const headers = Object.fromEntries(
      new Headers(options.headers as ConstructorParameters<typeof Headers>[0]).entries(),
    );
    const response = await app.inject({
      method: options.method as 'GET' | 'POST',
      url: target.pathname + target.search,
      headers: { ...headers, ...RP_HEADERS },
      ...(options.body === undefined || options.body === null ? {} : { payload: String(options.body) }),
    });
    const answer = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    return new Response(response.rawPayload, { status: response.statusCode, headers: answer });
  };
}

/** The test client (a public client using PKCE) as openid-client discovers it; ID-token signatures checked. */
export async function discoverRelyingParty(app: FastifyInstance): Promise<oidc.Configuration> {
  const config = await oidc.discovery(new URL(`${RP_PUBLIC_URL}/oidc`), CLIENT_ID, undefined, oidc.None(), {
    [oidc.customFetch]: injectedFetch(app),
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
