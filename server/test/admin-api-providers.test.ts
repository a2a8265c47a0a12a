import { checkUsernameResponse } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { upstreamProviderView } from '../src/provisioning/provider-schemas.ts';
import { ADMIN_CLIENT, adminEvents, useAdminApi } from './admin-api-kit.ts';
import { apiClient } from './recovery-kit.ts';

const UPSTREAM_SECRET = 'upstream-secret-value';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const { service, api } = useAdminApi();
const app = () => service().app;
const db = () => service().db;

function addProvider(name: string, domains: string[]) {
  return api('POST', '/upstream-providers', {
    name,
    issuer: 'https://login.contoso.example',
    clientId: 'keycard',
    clientSecret: UPSTREAM_SECRET,
    domains,
  });
}

async function homeRealm(email: string) {
  const client = await apiClient(app());
  const answer = await client.post('/api/CheckUsername', { Username: email, ReturnUrl: null });
  return checkUsernameResponse.parse(answer.json());
}

describe('POST /admin/api/upstream-providers', () => {
  it('registers a provider with its domains (201), never shows the secret, and sends the domain there', async () => {
    const created = await addProvider('Contoso', ['Contoso.example']);
    expect(created.statusCode).toBe(201);
    const view = upstreamProviderView.parse(created.json());
    expect(view).toMatchObject({ name: 'Contoso', domains: ['contoso.example'], clientId: 'keycard' });
    expect(created.body).not.toContain(UPSTREAM_SECRET);
    expect(await homeRealm('someone@contoso.example')).toMatchObject({
      userHasExternalIdentityProvider: true,
      externalIdentityProviderGuid: view.id,
    });
    expect(await adminEvents(db(), 'idp:add')).toContainEqual(
      expect.objectContaining({
        detail: { command: 'idp:add', providerId: view.id, domains: 1, actor: ADMIN_CLIENT },
      }),
    );
    const read = await api('GET', `/upstream-providers/${view.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(view);
    const list = await api('GET', '/upstream-providers');
    expect(list.json().providers).toContainEqual(view);
  });

  it('answers 409 for a domain bound elsewhere and 400 naming the field for a bad issuer or no domain', async () => {
    expect((await addProvider('Original', ['original.example'])).statusCode).toBe(201);
    const taken = await addProvider('Copycat', ['original.example']);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'conflict', field: 'domains' });
    const plainHttp = await api('POST', '/upstream-providers', {
      name: 'Plain',
      issuer: 'http://login.plain.example',
      clientId: 'keycard',
      clientSecret: UPSTREAM_SECRET,
      domains: ['plain.example'],
    });
    expect(plainHttp.statusCode).toBe(400);
    expect(plainHttp.json()).toMatchObject({ code: 'invalid_input', field: 'issuer' });
    const noDomain = await addProvider('Nowhere', []);
    expect(noDomain.json()).toMatchObject({ code: 'invalid_input', field: 'domains' });
    expect((await api('GET', `/upstream-providers/${UNKNOWN}`)).statusCode).toBe(404);
  });
});

describe('PUT and DELETE /admin/api/upstream-providers/{providerId}/domains/{domain}', () => {
  it('binds and unbinds a domain, which home-realm discovery follows', async () => {
    const { id } = upstreamProviderView.parse((await addProvider('Fabrikam', ['fabrikam.example'])).json());
    const bound = await api('PUT', `/upstream-providers/${id}/domains/Fabrikam-Labs.example`);
    expect(bound.statusCode).toBe(200);
    expect(bound.json()).toMatchObject({ domains: ['fabrikam-labs.example', 'fabrikam.example'] });
    expect((await homeRealm('x@fabrikam-labs.example')).externalIdentityProviderGuid).toBe(id);
    expect(await adminEvents(db(), 'idp:bind-domain')).toContainEqual(
      expect.objectContaining({
        detail: {
          command: 'idp:bind-domain',
          providerId: id,
          domain: 'fabrikam-labs.example',
          actor: ADMIN_CLIENT,
        },
      }),
    );

    const unbound = await api('DELETE', `/upstream-providers/${id}/domains/fabrikam-labs.example`);
    expect(unbound.statusCode).toBe(200);
    expect(unbound.json()).toMatchObject({ domains: ['fabrikam.example'] });
    expect((await homeRealm('x@fabrikam-labs.example')).userHasExternalIdentityProvider).toBe(false);
    expect(await adminEvents(db(), 'idp:unbind-domain')).toHaveLength(1);
  });

  it('answers 409 for a domain of another provider, 404 for an unknown provider or binding, 400 for a bad domain', async () => {
    expect((await addProvider('Tailspin', ['tailspin.example'])).statusCode).toBe(201);
    const { id } = upstreamProviderView.parse((await addProvider('Northwind', ['northwind.example'])).json());
    const elsewhere = await api('PUT', `/upstream-providers/${id}/domains/tailspin.example`);
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.json()).toMatchObject({ code: 'conflict', field: 'domain' });
    expect((await api('PUT', `/upstream-providers/${UNKNOWN}/domains/new.example`)).statusCode).toBe(404);
    const notBound = await api('DELETE', `/upstream-providers/${id}/domains/other.example`);
    expect(notBound.statusCode).toBe(404);
    expect(notBound.json()).toMatchObject({ code: 'not_found', field: 'domain' });
    const badDomain = await api('PUT', `/upstream-providers/${id}/domains/not_a_domain`);
    expect(badDomain.statusCode).toBe(400);
    expect(badDomain.json()).toMatchObject({ code: 'invalid_input', field: 'domain' });
    const badId = await api('PUT', '/upstream-providers/nope/domains/new.example');
    expect(badId.json()).toMatchObject({ code: 'invalid_input', field: 'providerId' });
  });
});
