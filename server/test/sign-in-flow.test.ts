import { loginResponse } from '@keycard/contract';
import { describe, expect, it, vi } from 'vitest';
import { addClient } from '../src/provisioning/client-operations.ts';
import { attemptSignIn } from './admin-api-kit.ts';
import {
  CLIENT_ID,
  claimsOf,
  createAccount,
  REDIRECT_URI,
  redeemCode,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

const REPORTS_CALLBACK = 'https://reports.example/callback';

const service = useTestService({
  setUp: async ({ db }) => {
    await registerTestClient(db);
    await createAccount(db, 'ada@example.com', 'Correct-Horse-42');
  },
});
const app = () => service().app;
const db = () => service().db;

describe('sign-in through the OpenID Connect code flow', () => {
  it('sends the browser to the SPA with a local resume path carrying the product name', async () => {
    const browser = new TestBrowser(app());
    const { returnUrl } = await startAuthorization(browser);
    expect(returnUrl).toMatch(/^\/oidc\/auth\/[\w-]+\?product=Planner$/);
  });

  it('signs in, resumes the interaction without consent and issues an ID token for the account', async () => {
    const browser = new TestBrowser(app());
    const auth = await startAuthorization(browser);
    await browser.loadSpa();
    const login = await browser.post('/api/login', {
      Username: ' ADA@example.com ',
      Password: 'Correct-Horse-42',
      ReturnUrl: auth.returnUrl,
    });
    expect(login.statusCode).toBe(200);
    const body = loginResponse.parse(login.json());
    expect(body).toEqual({
      isAuthenticated: true,
      redirectUrl: auth.returnUrl,
      verificationType: 0,
      verificationCode: null,
    });

    const code = await resumeToCode(browser, body.redirectUrl ?? '');
    const tokens = await redeemCode(app(), code, auth.verifier);
    expect(claimsOf(tokens.id_token)).toMatchObject({
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      given_name: 'Ada',
    });
  });

  it('refuses an authorization request without PKCE, back at the relying party', async () => {
    const browser = new TestBrowser(app());
    const response = await browser.get(
      `/oidc/auth?${new URLSearchParams({ client_id: CLIENT_ID, response_type: 'code', redirect_uri: REDIRECT_URI, scope: 'openid', state: 's1' })}`,
    );
    expect(response.statusCode).toBe(303);
    const location = new URL(String(response.headers.location));
    expect(location.origin + location.pathname).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('lets a confidential client redeem its code with its secret only', async () => {
    const secret = 'confidential-client-secret-0123456789';
    const added = await addClient(
      { db: db() },
      { id: 'reports', name: 'Reports', redirectUris: [REPORTS_CALLBACK], secret },
    );
    expect(added).toMatchObject({ clientId: 'reports', kind: 'confidential' });
    const browser = new TestBrowser(app());
    const auth = await startAuthorization(browser, { client_id: 'reports', redirect_uri: REPORTS_CALLBACK });
    await browser.loadSpa();
    await browser.post('/api/login', {
      Username: 'ada@example.com',
      Password: 'Correct-Horse-42',
      ReturnUrl: auth.returnUrl,
    });
    const resumed = await browser.get(auth.returnUrl);
    const code = new URL(String(resumed.headers.location)).searchParams.get('code') ?? '';
    const redeem = (authorization?: string) =>
      app().inject({
        method: 'POST',
        url: '/oidc/token',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(authorization ? { authorization } : {}),
        },
        payload: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REPORTS_CALLBACK,
          code_verifier: auth.verifier,
          ...(authorization ? {} : { client_id: 'reports' }),
        }).toString(),
      });
    const basic = (value: string) => `Basic ${Buffer.from(`reports:${value}`).toString('base64')}`;
    expect((await redeem()).statusCode).toBe(401);
    expect((await redeem(basic('wrong-secret'))).statusCode).toBe(401);
    const tokens = await redeem(basic(secret));
    expect(tokens.statusCode).toBe(200);
    expect(claimsOf(tokens.json<{ id_token: string }>().id_token)).toMatchObject({
      email: 'ada@example.com',
    });
  });
});

/** The driver both stores hand statements to: PGlite's `query(text, …)`, the pool's `query(config, …)`. */
type Driver = { query(...args: unknown[]): Promise<unknown> };

function statementText(args: unknown[]): string {
  const [first] = args;
  if (typeof first === 'string') return first;
  if (typeof first === 'object' && first !== null && 'text' in first) return String(first.text);
  return '';
}

/** Runs `work`, counting the statements that read a Session by its uid on the service's database. */
async function sessionReadsByUid(work: () => Promise<unknown>): Promise<number> {
  const driver = (db() as unknown as { $client: Driver }).$client;
  const query = vi.spyOn(driver, 'query');
  try {
    await work();
    return query.mock.calls.filter(
      (args) =>
        /"oidc_payload"\."uid" = \$\d/.test(statementText(args)) &&
        JSON.stringify(args).includes('"Session"'),
    ).length;
  } finally {
    query.mockRestore();
  }
}

/**
 * The service's wiring of request-reads.ts (oidc/provider.ts enters it for every protocol request):
 * oidc-provider asks for the code's session by uid twice in a token request (its session-binding
 * check, then the ID token's `sid`). request-reads.test.ts covers the memo itself; without the
 * wiring, this test counts two reads.
 */
describe('statements of a token request', () => {
  it("read the code's session by uid once, not once per question oidc-provider asks", async () => {
    const { browser, auth, body } = await attemptSignIn(app(), 'ada@example.com', 'Correct-Horse-42');
    const code = await resumeToCode(browser, body.redirectUrl ?? '');

    let idToken: string | undefined;
    const reads = await sessionReadsByUid(async () => {
      idToken = (await redeemCode(app(), code, auth.verifier)).id_token;
    });
    expect(claimsOf(idToken ?? '')).toMatchObject({ email: 'ada@example.com' });
    expect(reads).toBe(1);
  });
});
