import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTOSO_PROVIDER } from '../../test/support/upstream-provider-record.ts';
import { personClaims } from './upstream-person.ts';

// The sign-in asks UserInfo only when the ID token leaves the address or its email_verified out
// (OpenID Connect Core §5.4). A real UserInfo endpoint that counts its calls and answers about `uma`.
let calls = 0;
const userInfo = createServer((_request, response) => {
  calls += 1;
  response
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ sub: 'sub-uma', email: 'uma@contoso.example', email_verified: true }));
});
let config: oidc.Configuration;
const provider = CONTOSO_PROVIDER;

beforeAll(async () => {
  userInfo.listen(0, '127.0.0.1');
  await once(userInfo, 'listening');
  const { port } = userInfo.address() as AddressInfo;
  config = new oidc.Configuration(
    { issuer: provider.issuer, userinfo_endpoint: `http://127.0.0.1:${port}/userinfo` },
    provider.clientId,
    provider.clientSecret,
  );
  oidc.allowInsecureRequests(config);
});
afterAll(() => new Promise<void>((resolve) => userInfo.close(() => resolve())));

const idToken = (claims: Record<string, unknown>) =>
  ({ iss: provider.issuer, aud: 'keycard', iat: 0, exp: 0, sub: 'sub-uma', ...claims }) as oidc.IDToken;

describe('personClaims', () => {
  it('takes an ID token that states the address and whether it is verified, without asking UserInfo', async () => {
    calls = 0;
    for (const verified of [true, false]) {
      const token = idToken({ email: 'uma@contoso.example', email_verified: verified });
      expect(await personClaims(provider, config, 'access', token)).toBe(token);
    }
    expect(calls).toBe(0);
  });

  it.each([
    ['no address', { email_verified: true }],
    ['no email_verified', { email: 'uma@contoso.example' }],
    ['an address that is no string', { email: 42, email_verified: true }],
  ])('asks UserInfo for an ID token with %s', async (_case, claims) => {
    calls = 0;
    expect(await personClaims(provider, config, 'access', idToken(claims))).toMatchObject({
      sub: 'sub-uma',
      email: 'uma@contoso.example',
      email_verified: true,
    });
    expect(calls).toBe(1);
  });

  it('answers null when UserInfo speaks of another subject', async () => {
    expect(await personClaims(provider, config, 'access', idToken({ sub: 'sub-someone-else' }))).toBeNull();
  });
});
