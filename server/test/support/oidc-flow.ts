import { createHash, randomBytes } from 'node:crypto';
import { type CallResponse, loginResponse } from '@keycard/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { insertAccount, storePassword } from '../../src/accounts/account-repository.ts';
import { hashPassword } from '../../src/accounts/password-hash.ts';
import type { Db } from '../../src/store/database.ts';
import { oidcClients } from '../../src/store/tables/index.ts';

export const RP = 'https://planner.example';
export const CLIENT_ID = 'planner';
export const REDIRECT_URI = `${RP}/callback`;
export const POST_LOGOUT_URI = `${RP}/signed-out`;

/** Registers the relying party the tests sign in to: a public client using PKCE. */
export async function registerTestClient(db: Db): Promise<void> {
  await db
    .insert(oidcClients)
    .values({
      clientId: CLIENT_ID,
      productName: 'Planner',
      redirectUris: [REDIRECT_URI],
      postLogoutRedirectUris: [POST_LOGOUT_URI],
      grantTypes: ['authorization_code'],
      tokenEndpointAuthMethod: 'none',
      requirePkce: true,
    })
    .onConflictDoNothing();
}

export async function createAccount(
  db: Db,
  email: string,
  password: string | null,
  displayName = 'Ada Lovelace',
) {
  const account = await insertAccount(db, { email, displayName });
  if (!account) throw new Error(`account ${email} exists`);
  if (password !== null) await storePassword(db, account.id, await hashPassword(password), new Date());
  return account;
}

/** A browser's cookie jar, enough for one origin in tests (paths are ignored). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies) {
      if (cookie.value === '' || (cookie.maxAge !== undefined && cookie.maxAge <= 0))
        this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }
}

/** A browser that has loaded the SPA (CSRF token) and can call the API and follow provider redirects. */
export class TestBrowser {
  private token = '';

  /** `headers` go with every request (e.g. X-Forwarded-Proto of a TLS-terminating proxy). */
  constructor(
    private readonly app: FastifyInstance,
    private readonly headers: Record<string, string> = {},
    readonly jar = new CookieJar(),
  ) {}

  /** The same browser (cookies, CSRF token) talking to another instance behind the load balancer. */
  on(app: FastifyInstance): TestBrowser {
    const moved = new TestBrowser(app, this.headers, this.jar);
    moved.token = this.token;
    return moved;
  }

  /**
   * Submits a self-submitting form page of the provider (its sign-out confirmation when another
   * account signs in here) as the page's script does; `leaveOut` names inputs a changed form lacks.
   */
  async submitForm(
    page: LightMyRequestResponse,
    leaveOut: readonly string[] = [],
  ): Promise<LightMyRequestResponse> {
    const action = new URL(/action="([^"]+)"/.exec(page.body)?.[1] ?? '');
    const inputs = [...page.body.matchAll(/name="(\w+)" value="([^"]*)"/g)]
      .map(([, name = '', value = '']): [string, string] => [name, value])
      .filter(([name]) => !leaveOut.includes(name));
    const submitted = await this.app.inject({
      method: 'POST',
      url: action.pathname,
      headers: { cookie: this.jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(inputs).toString(),
    });
    this.jar.take(submitted);
    return submitted;
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method: 'GET',
      url,
      headers: { ...this.headers, cookie: this.jar.header(), accept: 'text/html,application/xhtml+xml' },
    });
    this.jar.take(response);
    return response;
  }

  async loadSpa(): Promise<void> {
    this.token = (await this.get('/api/getcsrftoken')).body;
  }

  async post(url: string, payload: unknown): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method: 'POST',
      url,
      payload: payload as Record<string, unknown>,
      headers: {
        ...this.headers,
        cookie: this.jar.header(),
        'x-csrf-token': this.token,
        'sec-fetch-site': 'same-origin',
      },
    });
    this.jar.take(response);
    return response;
  }

  /** Submits a form of a page of this origin, as the browser does (no CSRF token of the SPA's). */
  async postForm(url: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method: 'POST',
      url,
      payload: new URLSearchParams(fields).toString(),
      headers: {
        ...this.headers,
        cookie: this.jar.header(),
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
      },
    });
    this.jar.take(response);
    return response;
  }
}

export interface Authorization {
  /** The ReturnUrl the provider put on the sign-in page's address. */
  returnUrl: string;
  verifier: string;
  state: string;
}

/** The test client's authorization request (code flow with PKCE S256), with its verifier and state. */
export function authorizationRequest(extra: Record<string, string> = {}) {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(8).toString('hex');
  const query = new URLSearchParams({
    client_id: CLIENT_ID,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: 'openid email profile',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
    ...extra,
  });
  return { path: `/oidc/auth?${query}`, verifier, state };
}

/** The relying party sends the browser to the authorize endpoint; the provider sends it to sign in. */
export async function startAuthorization(
  browser: TestBrowser,
  extra: Record<string, string> = {},
): Promise<Authorization> {
  const { path, verifier, state } = authorizationRequest(extra);
  const response = await browser.get(path);
  const location = response.headers.location;
  if (response.statusCode !== 303 || typeof location !== 'string') {
    throw new Error(`authorize answered ${response.statusCode} ${response.body}`);
  }
  const returnUrl = new URL(location, 'http://keycard.test').searchParams.get('ReturnUrl');
  if (!returnUrl) throw new Error(`no ReturnUrl in ${location}`);
  return { returnUrl, verifier, state };
}

/** One /api/login attempt from a fresh browser with an interaction of its own: the parsed answer. */
export async function attemptLogin(
  app: FastifyInstance,
  email: string,
  password: string,
): Promise<CallResponse<'login'>> {
  const browser = new TestBrowser(app);
  const { returnUrl } = await startAuthorization(browser);
  await browser.loadSpa();
  const response = await browser.post('/api/login', {
    Username: email,
    Password: password,
    ReturnUrl: returnUrl,
  });
  if (response.statusCode !== 200)
    throw new Error(`/api/login answered ${response.statusCode}: ${response.body}`);
  return loginResponse.parse(response.json());
}

/** Follows the resume path after a successful login to the relying party's callback; returns its code. */
export async function resumeToCode(browser: TestBrowser, resumePath: string): Promise<string> {
  let response = await browser.get(resumePath);
  for (let hop = 0; hop < 5 && response.statusCode >= 300 && response.statusCode < 400; hop++) {
    const location = String(response.headers.location);
    if (location.startsWith(REDIRECT_URI)) {
      const code = new URL(location).searchParams.get('code');
      if (!code) throw new Error(`no code in ${location}`);
      return code;
    }
    response = await browser.get(
      new URL(location, 'http://localhost:3000').pathname + new URL(location, 'http://localhost:3000').search,
    );
  }
  throw new Error(`resume ended at ${response.statusCode} ${response.headers.location ?? response.body}`);
}

/** The relying party's back channel: code + verifier for tokens. */
export async function redeemCode(app: FastifyInstance, code: string, verifier: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: CLIENT_ID,
      code_verifier: verifier,
    }).toString(),
  });
  if (response.statusCode !== 200) throw new Error(`token answered ${response.statusCode} ${response.body}`);
  return response.json<{ id_token: string; access_token: string }>();
}

export function claimsOf(idToken: string): Record<string, unknown> {
  const payload = idToken.split('.')[1];
  if (!payload) throw new Error('not a JWT');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}
