import { resourceServersView, resourceServerView } from '@keycard/contract';
import * as jose from 'jose';
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { useAdminApi } from './admin-api-kit.ts';
import {
  registerConfidentialClient,
  relyingParty,
  signInThrough,
} from './support/confidential-relying-party.ts';
import { ISSUER } from './support/relying-party.ts';

/** Registered through the admin API while the service runs. */
const PLANNING = 'https://api.planner.example/';
/** Registered, changed and removed by one test. */
const INVENTORY = 'https://inventory.planner.example/';
/** Named by RESOURCE_SERVERS only. */
const REPORTS = 'https://reports.planner.example/';
/** Named by RESOURCE_SERVERS and then registered: the registration takes its place. */
const CALENDAR = 'https://calendar.planner.example/';

const { service, api } = useAdminApi({
  // Two instances on one database, as a scaled-out service runs.
  instances: 2,
  env: {
    RESOURCE_SERVERS: JSON.stringify([
      { identifier: REPORTS, scopes: ['reports:read'], accessTokenTtl: 120 },
      { identifier: CALENDAR, scopes: ['calendar:read'], accessTokenTtl: 900 },
    ]),
  },
  setUp: async ({ db }) => {
    await registerConfidentialClient(db, 'planner');
    await registerConfidentialClient(db, 'reporting');
    await registerConfidentialClient(db, 'batch', { redirectUris: [], grantTypes: ['client_credentials'] });
  },
});

const encoded = (identifier: string) => `/resource-servers/${encodeURIComponent(identifier)}`;

async function jwks(): Promise<jose.JWTVerifyGetKey> {
  const response = await service().app.inject({ method: 'GET', url: '/oidc/jwks' });
  return jose.createLocalJWKSet(response.json<jose.JSONWebKeySet>());
}

/** A client-credentials token of `batch` for `resource`, through openid-client, from instance 0 or 1. */
async function machineToken(resource: string, scope: string, instance = 0) {
  const rp = await relyingParty(service().instance(instance), 'batch');
  return oidc.clientCredentialsGrant(rp, { resource, scope });
}

describe('resource servers registered through the admin API (RFC 8707)', () => {
  it('serves a resource registered while the service runs, with its lifetime and algorithm', async () => {
    // Before its registration nobody may ask for it.
    await expect(machineToken(PLANNING, 'planning:read')).rejects.toMatchObject({ error: 'invalid_target' });

    const created = await api('POST', '/resource-servers', {
      identifier: PLANNING,
      scopes: ['planning:read', 'planning:write'],
      accessTokenTtl: 240,
      signingAlg: 'ES256',
    });
    expect(created.statusCode).toBe(201);
    expect(resourceServerView.parse(created.json())).toEqual({
      identifier: PLANNING,
      origin: 'registered',
      scopes: ['planning:read', 'planning:write'],
      accessTokenTtl: 240,
      signingAlg: 'ES256',
      clientIds: null,
      introspectionClientId: null,
    });

    // A person signs in at a relying party that asks for the API: an RFC 9068 JWT signed ES256.
    const rp = await relyingParty(service().app, 'planner');
    const { tokens } = await signInThrough(service(), rp, {
      resource: PLANNING,
      scope: 'openid email planning:read',
    });
    const { payload, protectedHeader } = await jose.jwtVerify(tokens.access_token, await jwks(), {
      issuer: ISSUER,
      audience: PLANNING,
      typ: 'at+jwt',
    });
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload).toMatchObject({
      client_id: 'planner',
      scope: 'planning:read',
      sub: tokens.claims()?.sub,
    });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(240);
    expect(tokens.expires_in).toBe(240);
    // The other instance, which never saw the admin call, serves it too.
    expect((await machineToken(PLANNING, 'planning:write', 1)).expires_in).toBe(240);
  });

  it('applies a change with the next token request, and refuses the resource once it is removed', async () => {
    // A resource of its own, registered as the first test registers PLANNING.
    const created = await api('POST', '/resource-servers', {
      identifier: INVENTORY,
      scopes: ['inventory:read', 'inventory:write'],
      accessTokenTtl: 240,
      signingAlg: 'ES256',
    });
    expect(created.statusCode).toBe(201);
    expect((await machineToken(INVENTORY, 'inventory:write', 1)).expires_in).toBe(240);

    const changed = await api('PATCH', encoded(INVENTORY), { accessTokenTtl: 90, signingAlg: null });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ accessTokenTtl: 90, signingAlg: null });

    const token = await machineToken(INVENTORY, 'inventory:write');
    expect(token.expires_in).toBe(90);
    const { protectedHeader } = await jose.jwtVerify(token.access_token, await jwks(), {
      audience: INVENTORY,
    });
    // The provider's default: RS256, as the development keys hold an RSA key.
    expect(protectedHeader.alg).toBe('RS256');

    const removed = await api('DELETE', encoded(INVENTORY));
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ identifier: INVENTORY });
    for (const instance of [0, 1]) {
      await expect(machineToken(INVENTORY, 'inventory:write', instance)).rejects.toMatchObject({
        error: 'invalid_target',
      });
    }
    expect((await api('GET', encoded(INVENTORY))).statusCode).toBe(404);
  });

  it('gives tokens only to the clients it lists', async () => {
    const identifier = 'https://billing.planner.example/';
    const created = await api('POST', '/resource-servers', {
      identifier,
      scopes: ['billing:read'],
      clientIds: ['planner'],
    });
    expect(created.statusCode).toBe(201);
    await expect(machineToken(identifier, 'billing:read')).rejects.toMatchObject({
      error: 'invalid_target',
      error_description: 'this client may not ask for tokens for the requested resource',
    });
    const rp = await relyingParty(service().app, 'planner');
    const { tokens } = await signInThrough(service(), rp, {
      resource: identifier,
      scope: 'openid billing:read',
    });
    expect(jose.decodeJwt(tokens.access_token)).toMatchObject({ aud: identifier, scope: 'billing:read' });
    // Every client again once the list is cleared.
    await api('PATCH', encoded(identifier), { clientIds: null });
    expect(jose.decodeJwt((await machineToken(identifier, 'billing:read')).access_token)).toMatchObject({
      aud: identifier,
      client_id: 'batch',
    });
  });

  it('keeps RESOURCE_SERVERS working, lists it, and lets a registration take its place', async () => {
    const reports = await machineToken(REPORTS, 'reports:read');
    expect(reports.expires_in).toBe(120);
    expect(jose.decodeJwt(reports.access_token)).toMatchObject({ aud: REPORTS, scope: 'reports:read' });

    const registered = await api('POST', '/resource-servers', {
      identifier: CALENDAR,
      scopes: ['calendar:read', 'calendar:write'],
      accessTokenTtl: 300,
    });
    expect(registered.statusCode).toBe(201);
    expect((await machineToken(CALENDAR, 'calendar:write')).expires_in).toBe(300);

    const list = resourceServersView.parse((await api('GET', '/resource-servers')).json());
    const origins = Object.fromEntries(
      list.resourceServers.map((server) => [server.identifier, server.origin]),
    );
    expect(origins).toMatchObject({ [CALENDAR]: 'registered', [REPORTS]: 'environment' });
    expect(list.resourceServers.filter((server) => server.identifier === CALENDAR)).toHaveLength(1);
    expect((await api('GET', encoded(REPORTS))).json()).toMatchObject({
      origin: 'environment',
      accessTokenTtl: 120,
    });

    // An entry of the environment is changed there, and the answer says so.
    const refused = await api('PATCH', encoded(REPORTS), { accessTokenTtl: 60 });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toContain('RESOURCE_SERVERS');
    // Removing the registration brings the environment's entry back.
    await api('DELETE', encoded(CALENDAR));
    expect((await machineToken(CALENDAR, 'calendar:read')).expires_in).toBe(900);
  });

  it('reads, changes and removes a resource of the longest identifier the contract allows (2048 characters)', async () => {
    // Every character after the origin percent-encoded as three (| is %7C) in the path parameter.
    const origin = 'https://long.planner.example/';
    const identifier = `${origin}${'|'.repeat(2048 - origin.length)}`;
    expect(identifier).toHaveLength(2048);
    expect((await api('POST', '/resource-servers', { identifier, scopes: ['long:read'] })).statusCode).toBe(
      201,
    );
    expect(encoded(identifier).length).toBeGreaterThan(3 * 2000);
    const read = await api('GET', encoded(identifier));
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ identifier });
    expect((await api('PATCH', encoded(identifier), { accessTokenTtl: 60 })).json()).toMatchObject({
      accessTokenTtl: 60,
    });
    expect((await api('DELETE', encoded(identifier))).statusCode).toBe(200);
    expect((await api('GET', encoded(identifier))).statusCode).toBe(404);
  });

  it('refuses a registration that could not work, naming the field', async () => {
    await registerConfidentialClient(service().db, 'public-app', {
      clientSecret: null,
      tokenEndpointAuthMethod: 'none',
      requirePkce: true,
    });
    const base = { identifier: 'https://bad.planner.example/', scopes: ['bad:read'] };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...base, identifier: 'https://bad.planner.example/#api' }, 'identifier', 'fragment'],
      [{ ...base, identifier: 'api.planner.example' }, 'identifier', 'absolute URI'],
      [{ ...base, scopes: ['openid'] }, 'scopes.0', 'belong to sign-in'],
      [{ ...base, scopes: [] }, 'scopes', 'at least one'],
      [{ ...base, accessTokenTtl: 59 }, 'accessTokenTtl', 'at least 60'],
      [{ ...base, accessTokenTtl: 86_401 }, 'accessTokenTtl', 'at most 86400'],
      // The development keys are RSA and EC: nothing signs EdDSA.
      [{ ...base, signingAlg: 'EdDSA' }, 'signingAlg', 'RS256, PS256, ES256'],
      [{ ...base, clientIds: ['nobody'] }, 'clientIds', 'no client with the id nobody'],
      [{ ...base, introspectionClientId: 'nobody' }, 'introspectionClientId', 'no client'],
      [{ ...base, introspectionClientId: 'public-app' }, 'introspectionClientId', 'confidential'],
      [{ ...base, introspectionClientId: 'ops-console' }, 'introspectionClientId', 'admin client'],
    ];
    for (const [body, field, message] of cases) {
      const response = await api('POST', '/resource-servers', body);
      expect({ body, status: response.statusCode }).toEqual({ body, status: 400 });
      expect(response.json()).toMatchObject({ code: 'invalid_input', field });
      expect(response.json().message).toContain(message);
    }
    const list = resourceServersView.parse((await api('GET', '/resource-servers')).json());
    expect(list.resourceServers.map((server) => server.identifier)).not.toContain(base.identifier);

    await api('POST', '/resource-servers', base);
    const twice = await api('POST', '/resource-servers', base);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'conflict', field: 'identifier' });
  });
});
