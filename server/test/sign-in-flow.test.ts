import { loginResponse } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';
import {
  claimsOf,
  createAccount,
  redeemCode,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';

const testDb = useTestDatabase();
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp(testDb().db);
  await registerTestClient(testDb().db);
  await createAccount(testDb().db, 'ada@example.com', 'Correct-Horse-42');
});

afterAll(async () => {
  await app.close();
});

describe('sign-in through the OpenID Connect code flow', () => {
  it('sends the browser to the SPA with a local resume path carrying the product name', async () => {
    const browser = new TestBrowser(app);
    const { returnUrl } = await startAuthorization(browser);
    expect(returnUrl).toMatch(/^\/oidc\/auth\/[\w-]+\?product=Planner$/);
  });

  it('signs in, resumes the interaction without consent and issues an ID token for the account', async () => {
    const browser = new TestBrowser(app);
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
    const tokens = await redeemCode(app, code, auth.verifier);
    expect(claimsOf(tokens.id_token)).toMatchObject({
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      given_name: 'Ada',
    });
  });
});
