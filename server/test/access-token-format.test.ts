import { clientView } from '@keycard/contract';
import * as jose from 'jose';
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../src/store/clock.ts';
import { useAdminApi } from './admin-api-kit.ts';
import { CLIENT_SECRET, relyingParty, signInThrough } from './support/confidential-relying-party.ts';
import { REDIRECT_URI } from './support/oidc-flow.ts';
import { ISSUER } from './support/relying-party.ts';

const PLANNING = 'https://api.planner.example/';
const BILLING = 'https://billing.planner.example/';
/** The API whose introspection client one test takes away, so the other APIs stay as registered. */
const LEDGER = 'https://ledger.planner.example/';

/** A web app's registration through the admin API (client_secret_basic, code flow). */
const webApp = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: 'Planner',
  redirectUris: [REDIRECT_URI],
  secret: CLIENT_SECRET,
  ...extra,
});

/** A machine client: what an API registers to authenticate at the introspection endpoint. */
const machine = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: 'Planning API',
  secret: CLIENT_SECRET,
  grantTypes: ['client_credentials'],
  ...extra,
});

/** The clock the service stores and expires tokens by, moved by the lifetime test. */
const clock = manualClock();
const { service, api } = useAdminApi({ clock });

async function register(path: string, body: Record<string, unknown>) {
  const response = await api('POST', path, body);
  if (response.statusCode !== 201)
    throw new Error(`${path} answered ${response.statusCode} ${response.body}`);
  return response.json();
}

let ready: Promise<void> | undefined;

/**
 * The clients and APIs of this file, registered as an operator would: `jwt-app` keeps the default
 * format, `opaque-app` chose opaque, `planning-api` and `billing-api` are the APIs' introspection
 * clients, `reporting` is a bystander.
 */
function registerAll(): Promise<void> {
  ready ??= (async () => {
    await register('/clients', webApp('jwt-app'));
    await register('/clients', webApp('opaque-app', { accessTokenFormat: 'opaque' }));
    await register('/clients', webApp('reporting'));
    await register(
      '/clients',
      webApp('offline-app', {
        accessTokenFormat: 'opaque',
        grantTypes: ['authorization_code', 'refresh_token'],
        scopes: ['openid', 'offline_access'],
      }),
    );
    await register('/clients', machine('batch', { accessTokenFormat: 'opaque' }));
    await register('/clients', machine('planning-api'));
    await register('/clients', machine('billing-api'));
    await register('/resource-servers', {
      identifier: PLANNING,
      scopes: ['planning:read'],
      accessTokenTtl: 300,
      introspectionClientId: 'planning-api',
    });
    await register('/resource-servers', {
      identifier: BILLING,
      scopes: ['billing:read'],
      introspectionClientId: 'billing-api',
    });
  })();
  return ready;
}

const rp = (clientId: string) => relyingParty(service().app, clientId);

async function signInFor(clientId: string, parameters: Record<string, string>) {
  await registerAll();
  return (await signInThrough(service(), await rp(clientId), parameters)).tokens;
}

describe('access-token format per client', () => {
  it('gives a client of the default format an RFC 9068 JWT for a resource, and opaque tokens otherwise', async () => {
    const forApi = await signInFor('jwt-app', { resource: PLANNING, scope: 'openid planning:read' });
    const header = jose.decodeProtectedHeader(forApi.access_token);
    expect(header.typ).toBe('at+jwt');
    expect(jose.decodeJwt(forApi.access_token)).toMatchObject({ aud: PLANNING, client_id: 'jwt-app' });
    const plain = await signInFor('jwt-app', {});
    expect(plain.access_token.split('.')).toHaveLength(1);
    // A JWT is for the API to verify: the introspection endpoint does not take it (unsupported_token_type).
    await expect(
      oidc.tokenIntrospection(await rp('planning-api'), forApi.access_token),
    ).rejects.toMatchObject({
      error: 'unsupported_token_type',
    });
  });

  it('gives a client that chose opaque a reference token for the resource, which the API introspects', async () => {
    const tokens = await signInFor('opaque-app', { resource: PLANNING, scope: 'openid planning:read' });
    expect(tokens.access_token.split('.')).toHaveLength(1);
    expect(tokens.expires_in).toBe(300);

    const seen = await oidc.tokenIntrospection(await rp('planning-api'), tokens.access_token);
    expect(seen).toMatchObject({
      active: true,
      aud: PLANNING,
      client_id: 'opaque-app',
      scope: 'planning:read',
      sub: tokens.claims()?.sub,
      iss: ISSUER,
      token_type: 'Bearer',
    });
    expect((seen.exp ?? 0) - (seen.iat ?? 0)).toBe(300);
    // The client itself still learns about its own token.
    expect(await oidc.tokenIntrospection(await rp('opaque-app'), tokens.access_token)).toMatchObject({
      active: true,
    });
  });

  it('tells no other client, and no other API, about a token for the API', async () => {
    const tokens = await signInFor('opaque-app', { resource: PLANNING, scope: 'openid planning:read' });
    for (const clientId of ['reporting', 'billing-api', 'batch']) {
      expect(await oidc.tokenIntrospection(await rp(clientId), tokens.access_token)).toEqual({
        active: false,
      });
    }
  });

  it("shows the API only tokens issued for it: not another API's, not one without a resource", async () => {
    const forBilling = await signInFor('opaque-app', { resource: BILLING, scope: 'openid billing:read' });
    const forUserinfo = await signInFor('opaque-app', {});
    const planningApi = await rp('planning-api');
    expect(await oidc.tokenIntrospection(planningApi, forBilling.access_token)).toEqual({ active: false });
    expect(await oidc.tokenIntrospection(planningApi, forUserinfo.access_token)).toEqual({ active: false });
    expect(await oidc.tokenIntrospection(await rp('billing-api'), forBilling.access_token)).toMatchObject({
      active: true,
      aud: BILLING,
    });
  });

  it('lets the API introspect a client-credentials token for it, and see it end when revoked', async () => {
    await registerAll();
    const batch = await rp('batch');
    const token = await oidc.clientCredentialsGrant(batch, { resource: PLANNING, scope: 'planning:read' });
    expect(token.access_token.split('.')).toHaveLength(1);
    const planningApi = await rp('planning-api');
    expect(await oidc.tokenIntrospection(planningApi, token.access_token)).toMatchObject({
      active: true,
      aud: PLANNING,
      client_id: 'batch',
      scope: 'planning:read',
    });
    await oidc.tokenRevocation(batch, token.access_token);
    expect(await oidc.tokenIntrospection(planningApi, token.access_token)).toEqual({ active: false });
  });

  it('issues a fresh token for the API at every refresh, each introspected by the API', async () => {
    const tokens = await signInFor('offline-app', {
      resource: PLANNING,
      scope: 'openid offline_access planning:read',
      prompt: 'consent',
    });
    const refreshToken = tokens.refresh_token;
    if (!refreshToken) throw new Error('no refresh token was issued');
    const refreshed = await oidc.refreshTokenGrant(await rp('offline-app'), refreshToken, {
      resource: PLANNING,
    });
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.expires_in).toBe(300);
    expect(await oidc.tokenIntrospection(await rp('planning-api'), refreshed.access_token)).toMatchObject({
      active: true,
      aud: PLANNING,
      client_id: 'offline-app',
      scope: 'planning:read',
    });
    // The refresh token is the client's own: the API is not told about it.
    expect(await oidc.tokenIntrospection(await rp('planning-api'), refreshed.refresh_token ?? '')).toEqual({
      active: false,
    });
  });

  it("shows the API a token for it during the resource server's 300 seconds, and not after", async () => {
    const tokens = await signInFor('opaque-app', { resource: PLANNING, scope: 'openid planning:read' });
    const planningApi = await rp('planning-api');
    clock.advance(299_000);
    expect(await oidc.tokenIntrospection(planningApi, tokens.access_token)).toMatchObject({ active: true });
    clock.advance(2_000);
    expect(await oidc.tokenIntrospection(planningApi, tokens.access_token)).toEqual({ active: false });
  });

  it('stops introspection by the API once its introspection client is taken away', async () => {
    await registerAll();
    await register('/clients', machine('ledger-api'));
    await register('/resource-servers', {
      identifier: LEDGER,
      scopes: ['ledger:read'],
      introspectionClientId: 'ledger-api',
    });
    const tokens = await signInFor('opaque-app', { resource: LEDGER, scope: 'openid ledger:read' });
    const ledgerApi = await rp('ledger-api');
    expect(await oidc.tokenIntrospection(ledgerApi, tokens.access_token)).toMatchObject({ active: true });
    const changed = await api('PATCH', `/resource-servers/${encodeURIComponent(LEDGER)}`, {
      introspectionClientId: null,
    });
    expect(changed.json()).toMatchObject({ introspectionClientId: null });
    expect(await oidc.tokenIntrospection(ledgerApi, tokens.access_token)).toEqual({ active: false });
  });
});

describe('access-token format in the registration', () => {
  it('is shown, changed and refused like every other field', async () => {
    await registerAll();
    // A client of its own: jwt-app keeps the default format the other tests sign in with.
    await register('/clients', webApp('switching-app'));
    const shown = clientView.parse((await api('GET', '/clients/switching-app')).json());
    expect(shown.accessTokenFormat).toBe('jwt');
    const changed = await api('PATCH', '/clients/switching-app', { accessTokenFormat: 'opaque' });
    expect(clientView.parse(changed.json()).accessTokenFormat).toBe('opaque');
    const tokens = await signInFor('switching-app', { resource: PLANNING, scope: 'openid planning:read' });
    expect(tokens.access_token.split('.')).toHaveLength(1);

    const bad = await api('POST', '/clients', webApp('saml-app', { accessTokenFormat: 'saml' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid_input', field: 'accessTokenFormat' });
    expect(bad.json().message).toContain('must be one of jwt, opaque');
  });
});
