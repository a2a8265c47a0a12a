import { createPublicKey, verify } from 'node:crypto';
import { loginResponse } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.ts';
import {
  claimsOf,
  createAccount,
  redeemCode,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { testSigningJwk } from './support/signing-key.ts';
import { useTestService } from './support/test-service.ts';

const service = useTestService({ instances: 2, setUp: ({ db }) => registerTestClient(db) });
const PASSWORD = 'Two-Instances-42';

interface Jwks {
  keys: { kid: string; kty: string; n?: string; e?: string; crv?: string; x?: string; y?: string }[];
}

async function jwksOf(app: FastifyInstance): Promise<Jwks> {
  return (await app.inject({ method: 'GET', url: '/oidc/jwks' })).json<Jwks>();
}

/** Verifies an RS256/ES256 JWT against a JWKS, as any relying party library would. */
function verifiedBy(jwt: string, jwks: Jwks): boolean {
  const [header = '', payload = '', signature = ''] = jwt.split('.');
  const { kid, alg } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as {
    kid: string;
    alg: string;
  };
  const jwk = jwks.keys.find((key) => key.kid === kid);
  if (!jwk) return false;
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  const data = Buffer.from(`${header}.${payload}`);
  const raw = Buffer.from(signature, 'base64url');
  return alg.startsWith('ES')
    ? verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, raw)
    : verify('sha256', data, key, raw);
}

describe('several instances on one database (DESIGN §1 Scale-out)', () => {
  // Both started before the first sign-in: the second found the keys the first stored.
  const first = () => service().instance(0);
  const second = () => service().instance(1);

  it('finish a flow another instance started, and sign with the keys stored at the first start', async () => {
    const account = await createAccount(service().db, 'two-instances@example.com', PASSWORD);
    const onFirst = new TestBrowser(first());
    const auth = await startAuthorization(onFirst);
    const onSecond = onFirst.on(second());
    await onSecond.loadSpa();
    const login = await onSecond.post('/api/login', {
      Username: account.email,
      Password: PASSWORD,
      ReturnUrl: auth.returnUrl,
    });
    expect(loginResponse.parse(login.json()).isAuthenticated).toBe(true);
    const code = await resumeToCode(onSecond.on(first()), auth.returnUrl);
    const tokens = await redeemCode(second(), code, auth.verifier);

    const jwks = await jwksOf(first());
    expect(await jwksOf(second())).toEqual(jwks);
    expect(verifiedBy(tokens.id_token, jwks)).toBe(true);
  });

  it('redeem an authorization code once when both are asked for it at the same moment', async () => {
    const account = await createAccount(service().db, 'code-race@example.com', PASSWORD);
    const browser = new TestBrowser(first());
    const auth = await startAuthorization(browser);
    await browser.loadSpa();
    await browser.post('/api/login', {
      Username: account.email,
      Password: PASSWORD,
      ReturnUrl: auth.returnUrl,
    });
    const code = await resumeToCode(browser, auth.returnUrl);
    const redeemed = await Promise.allSettled([
      redeemCode(first(), code, auth.verifier),
      redeemCode(second(), code, auth.verifier),
    ]);
    expect(redeemed.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = redeemed.find((outcome) => outcome.status === 'rejected');
    expect(String(refused?.reason)).toMatch(/token answered 400 .*invalid_grant/);
  });

  it('rotate the session at sign-in: the session a browser had before no longer signs anyone in', async () => {
    const ada = await createAccount(service().db, 'rotate-ada@example.com', PASSWORD);
    const bob = await createAccount(service().db, 'rotate-bob@example.com', PASSWORD);
    const browser = new TestBrowser(first());
    const signIn = async (email: string, extra: Record<string, string> = {}) => {
      const auth = await startAuthorization(browser, extra);
      await browser.loadSpa();
      await browser.post('/api/login', { Username: email, Password: PASSWORD, ReturnUrl: auth.returnUrl });
      return auth;
    };
    await resumeToCode(browser, (await signIn(ada.email)).returnUrl);
    const before = browser.jar.get('_session');
    expect(before).toBeDefined();

    // Another account signs in on this browser (the relying party asked for prompt=login): the
    // provider first ends the old session through a self-submitting form, as a browser runs it.
    const switched = await signIn(bob.email, { prompt: 'login' });
    const resume = switched.returnUrl;
    const form = await browser.get(resume);
    expect(form.statusCode).toBe(200);
    expect(form.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-[\w+/=]+'/);
    const confirmed = await browser.submitForm(form);
    expect(new URL(String(confirmed.headers.location), 'http://localhost:3000').pathname).toBe(
      new URL(resume, 'http://localhost:3000').pathname,
    );
    const tokens = await redeemCode(first(), await resumeToCode(browser, resume), switched.verifier);
    expect(claimsOf(tokens.id_token)).toMatchObject({ sub: bob.id });
    const after = browser.jar.get('_session');
    expect(after).toBeDefined();
    expect(after).not.toBe(before);

    // The old session cookie, replayed, signs nobody in.
    const stale = new TestBrowser(second());
    stale.jar.set('_session', before ?? '');
    const silent = await startAuthorization(stale, { prompt: 'none' }).catch((error: Error) => error.message);
    expect(String(silent)).toMatch(/error=login_required/);
  });
});

describe('production keys from configuration', () => {
  it('publishes and signs with the OIDC_JWKS given, not a generated key', async () => {
    const jwk = testSigningJwk('configured-key-1');
    const app = await buildTestApp(service().db, { env: { OIDC_JWKS: JSON.stringify({ keys: [jwk] }) } });
    try {
      const published = await jwksOf(app);
      expect(published.keys.map((key) => key.kid)).toEqual(['configured-key-1']);
      expect(JSON.stringify(published)).not.toContain(String(jwk.d));
    } finally {
      await app.close();
    }
  });
});
