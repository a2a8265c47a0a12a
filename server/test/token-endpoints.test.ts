import * as jose from 'jose';
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import {
  registerConfidentialClient,
  relyingParty,
  signInThrough,
} from './support/confidential-relying-party.ts';
import { fetchVia, ISSUER } from './support/relying-party.ts';
import { useTestService } from './support/test-service.ts';

const API = 'https://api.planner.example/';

const service = useTestService({
  env: {
    RESOURCE_SERVERS: JSON.stringify([
      { identifier: API, scopes: ['planning:read', 'planning:write'], accessTokenTtl: 300 },
    ]),
  },
  setUp: async ({ db }) => {
    await registerConfidentialClient(db, 'planner');
    await registerConfidentialClient(db, 'reporting');
    await registerConfidentialClient(db, 'batch', { redirectUris: [], grantTypes: ['client_credentials'] });
    await registerConfidentialClient(db, 'spa', {
      clientSecret: null,
      tokenEndpointAuthMethod: 'none',
      requirePkce: true,
    });
  },
});

describe('RFC 7662 introspection and RFC 7009 revocation (openid-client)', () => {
  it('tells a public client nothing: anyone can send its id, so its own tokens answer inactive', async () => {
    const rp = await oidc.discovery(new URL(ISSUER), 'spa', undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
      [oidc.customFetch]: fetchVia(service().app),
    });
    const { tokens } = await signInThrough(service(), rp);
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      if (token === undefined) continue;
      const answer = await service().app.inject({
        method: 'POST',
        url: '/oidc/token/introspection',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token, client_id: 'spa' }).toString(),
      });
      expect(answer.json()).toEqual({ active: false });
    }
    // The token itself works: it is only not described to whoever holds the client's id.
    expect((await oidc.fetchUserInfo(rp, tokens.access_token, oidc.skipSubjectCheck)).email).toBeDefined();
  });

  it('tells a client about its own access token, and after revocation that it is inactive', async () => {
    const rp = await relyingParty(service().app, 'planner');
    const { tokens } = await signInThrough(service(), rp);
    const active = await oidc.tokenIntrospection(rp, tokens.access_token);
    expect(active).toMatchObject({
      active: true,
      client_id: 'planner',
      iss: ISSUER,
      token_type: 'Bearer',
      scope: expect.stringContaining('openid'),
      sub: tokens.claims()?.sub,
    });

    await oidc.tokenRevocation(rp, tokens.access_token);
    expect(await oidc.tokenIntrospection(rp, tokens.access_token)).toEqual({ active: false });
    // The revoked token no longer reaches the userinfo endpoint either.
    await expect(oidc.fetchUserInfo(rp, tokens.access_token, oidc.skipSubjectCheck)).rejects.toThrow();
  });

  it('answers another client "inactive" for a live token, so no client learns of tokens it was not given', async () => {
    const planner = await relyingParty(service().app, 'planner');
    const { tokens } = await signInThrough(service(), planner);
    const reporting = await relyingParty(service().app, 'reporting');
    expect(await oidc.tokenIntrospection(reporting, tokens.access_token)).toEqual({ active: false });
    // Nor may it revoke it: the token still works for its own client.
    await expect(oidc.tokenRevocation(reporting, tokens.access_token)).rejects.toMatchObject({
      error: 'invalid_request',
    });
    expect(await oidc.tokenIntrospection(planner, tokens.access_token)).toMatchObject({ active: true });
  });

  it('refuses a caller that does not authenticate as registered', async () => {
    const { tokens } = await signInThrough(service(), await relyingParty(service().app, 'planner'));
    const response = await service().app.inject({
      method: 'POST',
      url: '/oidc/token/introspection',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('planner:wrong-secret-0123456789abcdefghij').toString('base64')}`,
      },
      payload: new URLSearchParams({ token: tokens.access_token }).toString(),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'invalid_client' });
  });
});

describe('RFC 9068 JWT access tokens for a registered resource (RFC 8707)', () => {
  it('issues a JWT for the resource a client asks for, verifiable against /jwks', async () => {
    const rp = await relyingParty(service().app, 'planner');
    const { tokens } = await signInThrough(service(), rp, {
      resource: API,
      scope: 'openid email planning:read',
    });
    const jwks = (
      await service().app.inject({ method: 'GET', url: '/oidc/jwks' })
    ).json<jose.JSONWebKeySet>();
    const { payload, protectedHeader } = await jose.jwtVerify(
      tokens.access_token,
      jose.createLocalJWKSet(jwks),
      { issuer: ISSUER, audience: API, typ: 'at+jwt' },
    );
    expect(protectedHeader.typ).toBe('at+jwt');
    // RFC 9068 §2.2: iss, exp, aud, sub, client_id, iat, jti; the scope granted for this resource only.
    expect(payload).toMatchObject({
      aud: API,
      sub: tokens.claims()?.sub,
      client_id: 'planner',
      scope: 'planning:read',
    });
    expect(typeof payload.jti).toBe('string');
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(300);
    expect(tokens.expires_in).toBe(300);
  });

  it('keeps access tokens opaque when no resource is asked for', async () => {
    const { tokens } = await signInThrough(service(), await relyingParty(service().app, 'planner'));
    expect(tokens.access_token.split('.')).toHaveLength(1);
  });

  it('refuses a resource nobody registered with invalid_target', async () => {
    const rp = await relyingParty(service().app, 'planner');
    await expect(
      signInThrough(service(), rp, { resource: 'https://elsewhere.example/', scope: 'openid' }),
    ).rejects.toThrow(/invalid_target/);
  });

  it('gives a client-credentials token for a resource as a JWT, and the admin API still refuses it', async () => {
    const rp = await relyingParty(service().app, 'batch');
    const token = await oidc.clientCredentialsGrant(rp, { resource: API, scope: 'planning:write' });
    const claims = jose.decodeJwt(token.access_token);
    expect(claims).toMatchObject({ aud: API, client_id: 'batch', sub: 'batch', scope: 'planning:write' });
    expect(token.expires_in).toBe(300);
    const admin = await service().app.inject({
      method: 'GET',
      url: '/admin/api/users?email=nobody%40example.com',
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(admin.statusCode).toBe(401);
  });
});
