import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useAdminApi } from './admin-api-kit.ts';
import { runAdmin } from './admin-harness.ts';
import { clientKeyPair } from './support/client-keys.ts';
import { createAccount } from './support/oidc-flow.ts';
import {
  authorizeInBrowser,
  callbackOf,
  codeFlow,
  relyingParty,
  signInWith,
} from './support/relying-party.ts';

/**
 * Per-client registration through the admin API and the CLI: what each combination does for a real
 * client (openid-client), and the combinations refused with the field to fix.
 */

const PASSWORD = 'Registration-Rules-2024!';
const SECRET = 'registration-secret-0123456789abcdefgh';
const REDIRECT = 'https://reg.example/cb';
const PERSON = { email: 'registration@example.com', password: PASSWORD };

const { service, api } = useAdminApi({
  setUp: ({ db }) => createAccount(db, PERSON.email, PASSWORD).then(() => undefined),
});
const app = () => service().app;
let serial = 0;

function nextId(): string {
  serial += 1;
  return `reg-${serial}`;
}

async function register(body: Record<string, unknown>) {
  const id = nextId();
  const answer = await api('POST', '/clients', { id, name: `Registration ${serial}`, ...body });
  return { id, answer };
}

/**
 * The network edge: the client's web server publishing its JWKS. oidc-provider fetches a jwks_uri
 * with the global fetch (guarded against loopback and private addresses, so no local server would
 * do); this answers the one URL the test registers and leaves every other request alone.
 */
const JWKS_URI = 'https://keys.reg.example/jwks.json';
let published: unknown = { keys: [] };
const realFetch = globalThis.fetch;
beforeAll(() => {
  vi.stubGlobal('fetch', (url: string | URL | Request, init?: RequestInit) =>
    String(url) === JWKS_URI ? Promise.resolve(Response.json(published)) : realFetch(url, init),
  );
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe('registration refuses combinations that could not work, naming the field', () => {
  const cases: [name: string, body: Record<string, unknown>, field: string][] = [
    [
      'a secret method without a secret',
      { redirectUris: [REDIRECT], tokenEndpointAuthMethod: 'client_secret_post' },
      'secret',
    ],
    [
      'a secret for a public client',
      { redirectUris: [REDIRECT], tokenEndpointAuthMethod: 'none', secret: SECRET },
      'secret',
    ],
    [
      'private_key_jwt without keys',
      { redirectUris: [REDIRECT], tokenEndpointAuthMethod: 'private_key_jwt' },
      'jwks',
    ],
    [
      'keys for a secret client',
      { redirectUris: [REDIRECT], secret: SECRET, jwksUri: 'https://reg.example/jwks' },
      'jwksUri',
    ],
    ['the code flow without a redirect URI', { grantTypes: ['authorization_code'] }, 'redirectUris'],
    [
      'a redirect URI without the code flow',
      { redirectUris: [REDIRECT], grantTypes: ['client_credentials'], secret: SECRET },
      'redirectUris',
    ],
    [
      'refresh_token without offline_access',
      { redirectUris: [REDIRECT], grantTypes: ['authorization_code', 'refresh_token'] },
      'scopes',
    ],
    [
      'offline_access without refresh_token',
      { redirectUris: [REDIRECT], scopes: ['openid', 'offline_access'] },
      'grantTypes',
    ],
    [
      'refresh_token without the code flow',
      { grantTypes: ['refresh_token'], scopes: ['openid', 'offline_access'] },
      'grantTypes',
    ],
    ['client_credentials for a public client', { grantTypes: ['client_credentials'] }, 'grantTypes'],
    ['the code flow without openid', { redirectUris: [REDIRECT], scopes: ['email'] }, 'scopes'],
    ['a public client without PKCE', { redirectUris: [REDIRECT], requirePkce: false }, 'requirePkce'],
    [
      'an ID-token algorithm the keys cannot make',
      { redirectUris: [REDIRECT], idTokenSignedResponseAlg: 'EdDSA' },
      'idTokenSignedResponseAlg',
    ],
    ['the admin scope', { redirectUris: [REDIRECT], scopes: ['openid', 'keycard:admin'] }, 'scopes.1'],
    [
      'private keys in jwks',
      { grantTypes: ['client_credentials'], jwks: { keys: [{ kty: 'EC', d: 'x' }] } },
      'jwks.keys.0',
    ],
  ];
  it.each(cases.map(([name, body, field]) => ({ name, body, field })))(
    'refuses $name (400 naming $field)',
    async ({ body, field }) => {
      const { id, answer } = await register(body);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'invalid_input', field });
      expect((await api('GET', `/clients/${id}`)).statusCode).toBe(404);
    },
  );

  it('refuses a change that breaks the client, and keeps the registration as it was', async () => {
    const { id } = await register({ redirectUris: [REDIRECT] });
    const broken = await api('PATCH', `/clients/${id}`, { scopes: ['openid', 'offline_access'] });
    expect(broken.json()).toMatchObject({ code: 'invalid_input', field: 'grantTypes' });
    const fixed = await api('PATCH', `/clients/${id}`, {
      scopes: ['openid', 'offline_access'],
      grantTypes: ['authorization_code', 'refresh_token'],
    });
    expect(fixed.json()).toMatchObject({ grantTypes: ['authorization_code', 'refresh_token'] });
    expect((await api('GET', `/clients/${id}`)).json()).toMatchObject({
      scopes: ['openid', 'offline_access'],
    });
  });

  it('tells the CLI user the flag at fault', async () => {
    const run = await runAdmin(
      [
        'client:add',
        '--id',
        'reg-cli',
        '--name',
        'CLI',
        '--redirect-uri',
        REDIRECT,
        '--scope',
        'openid',
        '--scope',
        'offline_access',
      ],
      { db: service().db },
    );
    expect(run).toMatchObject({
      code: 2,
      stderr: 'admin: invalid --grant-type: offline_access needs the refresh_token grant\n',
    });
  });
});

describe('registration: what each choice does for a client', () => {
  it('private_key_jwt with a jwks_uri: the provider fetches the keys and accepts the assertion', async () => {
    const { privateKey, publicJwk } = await clientKeyPair('ES256');
    published = { keys: [publicJwk] };
    const { id, answer } = await register({
      grantTypes: ['client_credentials'],
      scopes: ['openid'],
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwksUri: JWKS_URI,
    });
    expect(answer.json()).toMatchObject({ kind: 'confidential', tokenEndpointAuthMethod: 'private_key_jwt' });
    const config = await relyingParty(app(), id, oidc.PrivateKeyJwt({ key: privateKey, kid: publicJwk.kid }));
    expect((await oidc.clientCredentialsGrant(config, { scope: 'openid' })).access_token).toBeTruthy();
  });

  it('a confidential client signs in without PKCE, honours PKCE it sends, and may opt into requiring it', async () => {
    const { id } = await register({ redirectUris: [REDIRECT], secret: SECRET });
    const config = await relyingParty(app(), id, oidc.ClientSecretBasic(SECRET));
    const state = oidc.randomState();
    const plain = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state });
    const back = await authorizeInBrowser(app(), plain, PERSON);
    expect(
      (await oidc.authorizationCodeGrant(config, callbackOf(back), { expectedState: state })).id_token,
    ).toBeTruthy();

    // A challenge sent is checked: the code does not go with another verifier.
    const flow = await codeFlow(REDIRECT, 'openid');
    const challenged = await authorizeInBrowser(
      app(),
      oidc.buildAuthorizationUrl(config, flow.parameters),
      PERSON,
    );
    const wrong = { ...flow.checks, pkceCodeVerifier: oidc.randomPKCECodeVerifier() };
    await expect(oidc.authorizationCodeGrant(config, callbackOf(challenged), wrong)).rejects.toMatchObject({
      error: 'invalid_grant',
    });

    expect((await api('PATCH', `/clients/${id}`, { requirePkce: true })).json()).toMatchObject({
      requirePkce: true,
    });
    const refused = await authorizeInBrowser(
      app(),
      oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state }),
      PERSON,
    );
    expect(callbackOf(refused).searchParams.get('error')).toBe('invalid_request');
    expect(callbackOf(refused).searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('client_secret_post and client_secret_jwt clients sign people in with the code flow', async () => {
    for (const [method, auth] of [
      ['client_secret_post', oidc.ClientSecretPost(SECRET)],
      ['client_secret_jwt', oidc.ClientSecretJwt(SECRET)],
    ] as const) {
      const { id } = await register({
        redirectUris: [REDIRECT],
        secret: SECRET,
        tokenEndpointAuthMethod: method,
      });
      const config = await relyingParty(app(), id, auth);
      const tokens = await signInWith(app(), config, PERSON, {
        redirectUri: REDIRECT,
        scope: 'openid email',
      });
      expect(tokens.claims()).toMatchObject({ email: PERSON.email, aud: id });
      // The other secret methods are refused: the client authenticates only as registered.
      const other = await relyingParty(app(), id, oidc.ClientSecretBasic(SECRET));
      await expect(oidc.clientCredentialsGrant(other)).rejects.toThrow();
    }
  });

  it('an ID-token algorithm the keys make is registered and used; null returns to the default', async () => {
    const { id, answer } = await register({ redirectUris: [REDIRECT], idTokenSignedResponseAlg: 'RS256' });
    expect(answer.json()).toMatchObject({ idTokenSignedResponseAlg: 'RS256' });
    const config = await relyingParty(app(), id, oidc.None(), { id_token_signed_response_alg: 'RS256' });
    expect(
      (await signInWith(app(), config, PERSON, { redirectUri: REDIRECT, scope: 'openid' })).id_token,
    ).toBeTruthy();
    const reset = await api('PATCH', `/clients/${id}`, { idTokenSignedResponseAlg: null });
    expect(reset.json()).toMatchObject({ idTokenSignedResponseAlg: null });
  });
});
