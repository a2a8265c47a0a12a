import { describe, expect, it } from 'vitest';
import { oidcClients } from '../src/store/tables/index.ts';
import {
  CLIENT_ID,
  createAccount,
  REDIRECT_URI,
  RP,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/**
 * A single-page application signs in as a public client and calls the token endpoint and userinfo
 * from its own origin (CORS, oidc/browser-clients.ts): answered for an origin of its redirect URIs,
 * refused for any other origin and for a confidential client.
 */

const EMAIL = 'ada@example.com';
const PASSWORD = 'Correct-Horse-42';
const CONFIDENTIAL = { id: 'ledger', origin: 'https://ledger.example' };
/** A public client on two origins. */
const SPREAD = { id: 'rota', origins: ['https://rota.example', 'https://staff.rota.example:8443'] };
const service = useTestService({
  setUp: async ({ db }) => {
    await registerTestClient(db);
    await db.insert(oidcClients).values({
      clientId: CONFIDENTIAL.id,
      clientSecret: 'ledger-secret-0123456789abcdefghijklmnop',
      productName: 'Ledger',
      redirectUris: [`${CONFIDENTIAL.origin}/cb`],
      postLogoutRedirectUris: [],
      grantTypes: ['authorization_code'],
      tokenEndpointAuthMethod: 'client_secret_post',
    });
    await db.insert(oidcClients).values({
      clientId: SPREAD.id,
      productName: 'Rota',
      redirectUris: SPREAD.origins.map((origin) => `${origin}/cb`),
      postLogoutRedirectUris: [],
      grantTypes: ['authorization_code'],
      tokenEndpointAuthMethod: 'none',
      requirePkce: true,
    });
    await createAccount(db, EMAIL, PASSWORD);
  },
});
const app = () => service().app;

/** A code for the public test client and its PKCE verifier. */
async function codeAndVerifier() {
  const browser = new TestBrowser(app());
  const auth = await startAuthorization(browser);
  await browser.loadSpa();
  await browser.post('/api/login', { Username: EMAIL, Password: PASSWORD, ReturnUrl: auth.returnUrl });
  return { code: await resumeToCode(browser, auth.returnUrl), verifier: auth.verifier };
}

function tokenRequest(origin: string, fields: Record<string, string>) {
  return app().inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

const redeem = (origin: string, code: string, verifier: string) =>
  tokenRequest(origin, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: CLIENT_ID,
    code_verifier: verifier,
  });

describe('cross-origin calls of a browser client', () => {
  it("answers the public client's own origin at the token endpoint and userinfo, preflight included", async () => {
    const preflight = await app().inject({
      method: 'OPTIONS',
      url: '/oidc/token',
      headers: { origin: RP, 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(RP);

    const { code, verifier } = await codeAndVerifier();
    const tokens = await redeem(RP, code, verifier);
    expect(tokens.statusCode).toBe(200);
    expect(tokens.headers['access-control-allow-origin']).toBe(RP);

    const userinfo = await app().inject({
      method: 'GET',
      url: '/oidc/me',
      headers: {
        origin: RP,
        authorization: `Bearer ${tokens.json<{ access_token: string }>().access_token}`,
      },
    });
    expect(userinfo.statusCode).toBe(200);
    expect(userinfo.headers['access-control-allow-origin']).toBe(RP);
    expect(userinfo.json()).toMatchObject({ email: EMAIL });
  });

  it('refuses another origin, a sandboxed page and a lookalike, and the code stays unredeemed', async () => {
    const { code, verifier } = await codeAndVerifier();
    for (const origin of [
      'https://elsewhere.example',
      'null',
      'https://planner.example.evil.example',
      'http://planner.example',
    ]) {
      const refused = await redeem(origin, code, verifier);
      expect(refused.statusCode, origin).toBe(400);
      expect(refused.json(), origin).toMatchObject({ error: 'invalid_request' });
      expect(refused.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
    expect((await redeem(RP, code, verifier)).statusCode).toBe(200);
  });

  it("answers any origin of the client's redirect URIs, and no other", async () => {
    // An unknown code: the provider checks the origin as it learns the client, before the code.
    const call = (origin: string) =>
      tokenRequest(origin, {
        grant_type: 'authorization_code',
        code: 'no-such-code',
        redirect_uri: `${SPREAD.origins[1]}/cb`,
        client_id: SPREAD.id,
        code_verifier: 'v'.repeat(43),
      });
    for (const origin of SPREAD.origins) {
      const answered = await call(origin);
      expect(answered.json(), origin).toMatchObject({ error: 'invalid_grant' });
      expect(answered.headers['access-control-allow-origin'], origin).toBe(origin);
    }
    const elsewhere = await call('https://rota.example:8443');
    expect(elsewhere.json()).toMatchObject({ error: 'invalid_request' });
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("refuses a confidential client's token call from a browser, even from its own origin", async () => {
    const refused = await tokenRequest(CONFIDENTIAL.origin, {
      grant_type: 'authorization_code',
      code: 'unused',
      redirect_uri: `${CONFIDENTIAL.origin}/cb`,
      client_id: CONFIDENTIAL.id,
      client_secret: 'ledger-secret-0123456789abcdefghijklmnop',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'invalid_request' });
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });
});
