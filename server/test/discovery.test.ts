import * as jose from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAdminApi } from './admin-api-kit.ts';
import { clientKeyPair, formPostRequest, verifiedAlgorithm } from './support/client-keys.ts';
import { LogoutReceiver } from './support/logout-receiver.ts';
import { createAccount, TestBrowser } from './support/oidc-flow.ts';
import {
  authorizeInBrowser,
  callbackOf,
  codeFlow,
  ISSUER,
  relyingParty,
  signInWith,
} from './support/relying-party.ts';

/**
 * Discovery tells the truth: every value /.well-known/openid-configuration lists is exercised here
 * by a real client (openid-client) registered through the admin API. A listed value without an
 * exerciser fails the test, so whoever makes the provider advertise something new must prove it.
 */

const PASSWORD = 'Discovery-Rules-2024!';
const SECRET = 'discovery-secret-0123456789abcdefghijk';
const PUBLIC = { id: 'disc-public', redirect: 'https://disc.example/cb', bye: 'https://disc.example/bye' };
const PERSON = { email: 'discovery@example.com', password: PASSWORD };

const { service, api } = useAdminApi({
  setUp: ({ db }) => createAccount(db, PERSON.email, PASSWORD).then(() => undefined),
});
const app = () => service().app;

let document: Record<string, unknown> = {};
let serial = 0;

async function register(body: Record<string, unknown>): Promise<string> {
  serial += 1;
  const id = `disc-${serial}`;
  const created = await api('POST', '/clients', { id, name: `Discovery ${serial}`, ...body });
  if (created.statusCode !== 201) throw new Error(`registration refused: ${created.body}`);
  return id;
}

beforeAll(async () => {
  document = (await app().inject({ url: '/oidc/.well-known/openid-configuration' })).json();
  await api('POST', '/clients', {
    id: PUBLIC.id,
    name: 'Discovery',
    redirectUris: [PUBLIC.redirect],
    postLogoutUris: [PUBLIC.bye],
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: ['openid', 'email', 'profile', 'offline_access'],
  });
});

const publicClient = () => relyingParty(app(), PUBLIC.id);

/** The public client signed in with every scope it may ask for (once; exercisers share it). */
let signedIn: Promise<Awaited<ReturnType<typeof signInWith>>> | undefined;
async function tokens() {
  signedIn ??= publicClient().then((config) =>
    signInWith(app(), config, PERSON, {
      redirectUri: PUBLIC.redirect,
      scope: 'openid email profile offline_access',
    }),
  );
  return signedIn;
}

/** A machine client authenticating with `auth` obtains a client-credentials token. */
async function clientCredentials(id: string, auth: oidc.ClientAuth, options?: oidc.DPoPOptions) {
  const config = await relyingParty(app(), id, auth);
  return oidc.clientCredentialsGrant(config, { scope: 'openid' }, options);
}

/** A private_key_jwt client with a key of `alg` (its public key registered as jwks) gets a token. */
async function privateKeyJwt(alg: string) {
  const { privateKey, publicJwk } = await clientKeyPair(alg);
  const id = await register({
    grantTypes: ['client_credentials'],
    scopes: ['openid'],
    tokenEndpointAuthMethod: 'private_key_jwt',
    jwks: { keys: [publicJwk] },
  });
  const auth = oidc.PrivateKeyJwt(
    { key: privateKey, kid: publicJwk.kid },
    {
      [oidc.modifyAssertion]: (header) => {
        header.alg = alg;
      },
    },
  );
  expect((await clientCredentials(id, auth)).access_token).toBeTruthy();
}

/** A client registered for ID tokens signed with `alg` gets one, verified with the provider's jwks_uri. */
async function idTokenSignedWith(alg: string) {
  const id = await register({ redirectUris: [PUBLIC.redirect], idTokenSignedResponseAlg: alg });
  const config = await relyingParty(app(), id, oidc.None(), { id_token_signed_response_alg: alg });
  const issued = await signInWith(app(), config, PERSON, { redirectUri: PUBLIC.redirect, scope: 'openid' });
  const jwks = (await app().inject({ url: '/oidc/jwks' })).json();
  expect(verifiedAlgorithm(issued.id_token ?? '', jwks)).toBe(alg);
}

/** A code flow of the public client with response_mode `mode`: the code arrives and is redeemed. */
async function responseMode(mode: string) {
  const config = await publicClient();
  const flow = await codeFlow(PUBLIC.redirect, 'openid');
  const url = oidc.buildAuthorizationUrl(config, { ...flow.parameters, response_mode: mode });
  const back = await authorizeInBrowser(app(), url, PERSON);
  let callback: URL | Request;
  if (mode === 'form_post') callback = formPostRequest(back);
  else if (mode === 'fragment') {
    const location = callbackOf(back);
    expect(location.search).toBe('');
    callback = new URL(`${PUBLIC.redirect}?${location.hash.slice(1)}`);
  } else callback = callbackOf(back);
  expect((await oidc.authorizationCodeGrant(config, callback, flow.checks)).id_token).toBeTruthy();
}

/** A confidential client's own token is active at introspection; another client's is not (RFC 7662 §4). */
async function introspection() {
  const id = await register({ grantTypes: ['client_credentials'], scopes: ['openid'], secret: SECRET });
  const config = await relyingParty(app(), id, oidc.ClientSecretBasic(SECRET));
  const own = await oidc.clientCredentialsGrant(config, { scope: 'openid' });
  expect(await oidc.tokenIntrospection(config, own.access_token)).toMatchObject({
    active: true,
    client_id: id,
  });
  const others = (await tokens()).access_token;
  expect((await oidc.tokenIntrospection(config, others)).active).toBe(false);
}

/** The relying party's back-channel logout endpoint, for the exercisers of back-channel logout. */
const receiver = new LogoutReceiver();
afterAll(() => receiver.close());

/**
 * A client registered with a back-channel logout URI (and, if `sessionRequired`, needing `sid`)
 * signs a person in; the relying party ends the session; the logout token posted to the URI is
 * verified with the provider's keys and names the person, and the session of the ID token.
 */
async function backchannelLogout(sessionRequired: boolean) {
  receiver.received.length = 0;
  // Confidential: the receiver listens on plain http, which Back-Channel Logout 1.0 §2.2 allows only so.
  const id = await register({
    redirectUris: [PUBLIC.redirect],
    secret: SECRET,
    backchannelLogoutUri: await receiver.listen(),
    backchannelLogoutSessionRequired: sessionRequired,
  });
  const config = await relyingParty(app(), id, oidc.ClientSecretBasic(SECRET));
  const browser = new TestBrowser(app());
  const flow = await codeFlow(PUBLIC.redirect, 'openid');
  const url = oidc.buildAuthorizationUrl(config, flow.parameters);
  const back = await authorizeInBrowser(app(), url, PERSON, PUBLIC.redirect, browser);
  const issued = await oidc.authorizationCodeGrant(config, callbackOf(back), flow.checks);
  const end = oidc.buildEndSessionUrl(config, { id_token_hint: issued.id_token ?? '' });
  const ended = await browser.get(end.pathname + end.search);
  const logoutId = new URL(String(ended.headers.location), ISSUER).searchParams.get('logoutId');
  expect((await browser.post('/api/Logout', { logoutId })).statusCode).toBe(200);
  await app().logouts.runOnce();
  const [token] = receiver.tokens();
  const jwks = (await app().inject({ url: '/oidc/jwks' })).json<jose.JSONWebKeySet>();
  const { payload } = await jose.jwtVerify(token ?? '', jose.createLocalJWKSet(jwks), {
    issuer: ISSUER,
    audience: id,
    typ: 'logout+jwt',
  });
  expect(payload.sub).toBe(issued.claims()?.sub);
  expect(payload.sid).toBe(issued.claims()?.sid);
}

/** A claim of the signed-in person's ID token or userinfo (claim_types normal: plain members). */
async function claimArrives(claim: string, extra: Record<string, string> = {}) {
  const config = await publicClient();
  const flow = await codeFlow(PUBLIC.redirect, 'openid email profile');
  const url = oidc.buildAuthorizationUrl(config, { ...flow.parameters, ...extra });
  const back = await authorizeInBrowser(app(), url, PERSON);
  const issued = await oidc.authorizationCodeGrant(config, callbackOf(back), flow.checks);
  const userinfo = await oidc.fetchUserInfo(config, issued.access_token, oidc.skipSubjectCheck);
  const found = issued.claims()?.[claim] ?? userinfo[claim];
  expect(found, claim).toBeDefined();
  expect(typeof found === 'object', `${claim} is a plain value`).toBe(false);
}

type Exerciser = () => Promise<void>;

/** How each advertised value is proven: one exerciser per member, or per value of a list member. */
const EXERCISERS: Record<string, Exerciser | Record<string, Exerciser>> = {
  issuer: async () => {
    expect((await publicClient()).serverMetadata().issuer).toBe(ISSUER);
    expect((await tokens()).claims()?.iss).toBe(ISSUER);
  },
  authorization_endpoint: async () => expect((await tokens()).id_token).toBeTruthy(),
  token_endpoint: async () => expect((await tokens()).access_token).toBeTruthy(),
  userinfo_endpoint: async () => {
    const userinfo = await oidc.fetchUserInfo(
      await publicClient(),
      (await tokens()).access_token,
      oidc.skipSubjectCheck,
    );
    expect(userinfo).toMatchObject({ email: PERSON.email });
  },
  jwks_uri: async () => {
    const jwks = (await app().inject({ url: new URL(String(document.jwks_uri)).pathname })).json();
    expect(verifiedAlgorithm((await tokens()).id_token ?? '', jwks)).toBeTruthy();
  },
  introspection_endpoint: introspection,
  backchannel_logout_supported: async () => {
    expect(document.backchannel_logout_supported).toBe(true);
    await backchannelLogout(false);
  },
  backchannel_logout_session_supported: async () => {
    expect(document.backchannel_logout_session_supported).toBe(true);
    await backchannelLogout(true);
  },
  revocation_endpoint: async () => {
    const config = await publicClient();
    const issued = await signInWith(app(), config, PERSON, { redirectUri: PUBLIC.redirect, scope: 'openid' });
    await oidc.tokenRevocation(config, issued.access_token);
    await expect(oidc.fetchUserInfo(config, issued.access_token, oidc.skipSubjectCheck)).rejects.toThrow();
  },
  end_session_endpoint: async () => {
    const config = await publicClient();
    const browser = new TestBrowser(app());
    const flow = await codeFlow(PUBLIC.redirect, 'openid');
    const url = oidc.buildAuthorizationUrl(config, flow.parameters);
    const back = await authorizeInBrowser(app(), url, PERSON, PUBLIC.redirect, browser);
    const issued = await oidc.authorizationCodeGrant(config, callbackOf(back), flow.checks);
    const end = oidc.buildEndSessionUrl(config, {
      id_token_hint: issued.id_token ?? '',
      post_logout_redirect_uri: PUBLIC.bye,
    });
    const answer = await browser.get(end.pathname + end.search);
    const location = new URL(String(answer.headers.location), ISSUER);
    expect(location.pathname).toBe('/logout');
    expect(location.searchParams.get('logoutId')).toBeTruthy();
  },
  pushed_authorization_request_endpoint: async () => {
    const config = await publicClient();
    const flow = await codeFlow(PUBLIC.redirect, 'openid');
    const url = await oidc.buildAuthorizationUrlWithPAR(config, flow.parameters);
    expect(url.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    const back = await authorizeInBrowser(app(), url, PERSON, PUBLIC.redirect);
    expect((await oidc.authorizationCodeGrant(config, callbackOf(back), flow.checks)).id_token).toBeTruthy();
  },
  authorization_response_iss_parameter_supported: async () => {
    const config = await publicClient();
    const flow = await codeFlow(PUBLIC.redirect, 'openid');
    const back = await authorizeInBrowser(app(), oidc.buildAuthorizationUrl(config, flow.parameters), PERSON);
    expect(callbackOf(back).searchParams.get('iss')).toBe(ISSUER);
  },
  claims_parameter_supported: async () => {
    // false: a claims request is not honoured; the ID token holds what the scope gives.
    expect(document.claims_parameter_supported).toBe(false);
    const config = await publicClient();
    const flow = await codeFlow(PUBLIC.redirect, 'openid');
    const claims = JSON.stringify({ id_token: { email: { essential: true } } });
    const back = await authorizeInBrowser(
      app(),
      oidc.buildAuthorizationUrl(config, { ...flow.parameters, claims }),
      PERSON,
    );
    expect(
      (await oidc.authorizationCodeGrant(config, callbackOf(back), flow.checks)).claims()?.email,
    ).toBeUndefined();
  },
  request_uri_parameter_supported: async () => {
    // false: a request_uri other than one the PAR endpoint issued is refused.
    expect(document.request_uri_parameter_supported).toBe(false);
    const query = new URLSearchParams({
      client_id: PUBLIC.id,
      request_uri: 'https://disc.example/request.jwt',
    });
    const answer = await new TestBrowser(app()).get(`/oidc/auth?${query}`);
    expect(String(answer.headers.location ?? '')).not.toMatch(/^\/\?ReturnUrl=/);
  },
  grant_types_supported: {
    authorization_code: async () => expect((await tokens()).id_token).toBeTruthy(),
    refresh_token: async () => {
      const refreshed = await oidc.refreshTokenGrant(
        await publicClient(),
        (await tokens()).refresh_token ?? '',
      );
      expect(refreshed.refresh_token).toBeTruthy();
    },
    client_credentials: async () => {
      const id = await register({ grantTypes: ['client_credentials'], scopes: ['openid'], secret: SECRET });
      expect((await clientCredentials(id, oidc.ClientSecretBasic(SECRET))).access_token).toBeTruthy();
    },
  },
  response_types_supported: { code: () => responseMode('query') },
  response_modes_supported: {
    query: () => responseMode('query'),
    fragment: () => responseMode('fragment'),
    form_post: () => responseMode('form_post'),
  },
  code_challenge_methods_supported: { S256: async () => expect((await tokens()).id_token).toBeTruthy() },
  scopes_supported: {
    openid: async () => expect((await tokens()).claims()?.sub).toBeTruthy(),
    email: async () => expect((await tokens()).claims()?.email).toBe(PERSON.email),
    profile: async () => expect((await tokens()).claims()?.name).toBe('Ada Lovelace'),
    offline_access: async () => expect((await tokens()).refresh_token).toBeTruthy(),
  },
  subject_types_supported: {
    public: async () => {
      const other = await register({ redirectUris: [PUBLIC.redirect] });
      const config = await relyingParty(app(), other);
      const issued = await signInWith(app(), config, PERSON, {
        redirectUri: PUBLIC.redirect,
        scope: 'openid',
      });
      expect(issued.claims()?.sub).toBe((await tokens()).claims()?.sub);
    },
  },
  claim_types_supported: { normal: () => claimArrives('email') },
  claims_supported: {
    sub: () => claimArrives('sub'),
    email: () => claimArrives('email'),
    email_verified: () => claimArrives('email_verified'),
    name: () => claimArrives('name'),
    given_name: () => claimArrives('given_name'),
    iss: () => claimArrives('iss'),
    auth_time: () => claimArrives('auth_time', { max_age: '600' }),
    // Every ID token names its session (sid, Front/Back-Channel Logout §2) and binds its access token.
    sid: () => claimArrives('sid'),
    at_hash: () => claimArrives('at_hash'),
  },
  token_endpoint_auth_methods_supported: {
    none: async () => expect((await tokens()).access_token).toBeTruthy(),
    client_secret_basic: async () => {
      const id = await register({ grantTypes: ['client_credentials'], scopes: ['openid'], secret: SECRET });
      expect((await clientCredentials(id, oidc.ClientSecretBasic(SECRET))).access_token).toBeTruthy();
    },
    client_secret_post: async () => {
      const body = { grantTypes: ['client_credentials'], scopes: ['openid'], secret: SECRET };
      const id = await register({ ...body, tokenEndpointAuthMethod: 'client_secret_post' });
      expect((await clientCredentials(id, oidc.ClientSecretPost(SECRET))).access_token).toBeTruthy();
    },
    client_secret_jwt: async () => {
      const body = { grantTypes: ['client_credentials'], scopes: ['openid'], secret: SECRET };
      const id = await register({ ...body, tokenEndpointAuthMethod: 'client_secret_jwt' });
      expect((await clientCredentials(id, oidc.ClientSecretJwt(SECRET))).access_token).toBeTruthy();
    },
    private_key_jwt: () => privateKeyJwt('ES256'),
  },
  token_endpoint_auth_signing_alg_values_supported: {
    HS256: async () => {
      const body = { grantTypes: ['client_credentials'], scopes: ['openid'], secret: SECRET };
      const id = await register({ ...body, tokenEndpointAuthMethod: 'client_secret_jwt' });
      expect((await clientCredentials(id, oidc.ClientSecretJwt(SECRET))).access_token).toBeTruthy();
    },
    RS256: () => privateKeyJwt('RS256'),
    PS256: () => privateKeyJwt('PS256'),
    ES256: () => privateKeyJwt('ES256'),
    Ed25519: () => privateKeyJwt('Ed25519'),
    EdDSA: () => privateKeyJwt('EdDSA'),
  },
  id_token_signing_alg_values_supported: {
    RS256: () => idTokenSignedWith('RS256'),
    PS256: () => idTokenSignedWith('PS256'),
    ES256: () => idTokenSignedWith('ES256'),
    EdDSA: () => idTokenSignedWith('EdDSA'),
    Ed25519: () => idTokenSignedWith('Ed25519'),
  },
  dpop_signing_alg_values_supported: Object.fromEntries(
    ['ES256', 'Ed25519', 'EdDSA'].map((alg) => [
      alg,
      async () => {
        const id = await register({ grantTypes: ['client_credentials'], scopes: ['openid'], secret: SECRET });
        const config = await relyingParty(app(), id, oidc.ClientSecretBasic(SECRET));
        const keyPair = await oidc.randomDPoPKeyPair(alg === 'EdDSA' ? 'Ed25519' : alg);
        const DPoP = oidc.getDPoPHandle(config, keyPair, {
          [oidc.modifyAssertion]: (header) => {
            header.alg = alg;
          },
        });
        const issued = await oidc.clientCredentialsGrant(config, { scope: 'openid' }, { DPoP });
        expect(issued.token_type.toLowerCase()).toBe('dpop');
      },
    ]),
  ),
};

/** The exerciser of one advertised value: the member's own, or the one for this value of a list. */
function exerciserOf(member: string, value?: string): Exerciser | undefined {
  const entry = EXERCISERS[member];
  if (typeof entry === 'function' || entry === undefined) return entry;
  return value === undefined ? undefined : entry[value];
}

/** Every advertised (member, value) pair; scalar members once, without a value. */
function advertised(): [string, string | undefined][] {
  return Object.entries(document).flatMap(([member, listed]): [string, string | undefined][] =>
    Array.isArray(listed)
      ? listed.map((value): [string, string] => [member, String(value)])
      : [[member, undefined]],
  );
}

describe('discovery tells the truth', () => {
  it('lists no value without an exerciser here', () => {
    const unproven = advertised()
      .filter(([member, value]) => exerciserOf(member, value) === undefined)
      .map(([member, value]) => (value === undefined ? member : `${member}: ${value}`));
    expect(unproven).toEqual([]);
  });

  it('does not list the admin API scope, which the token endpoint still refuses to other clients', async () => {
    expect(document.scopes_supported).not.toContain('keycard:admin');
    const id = await register({ grantTypes: ['client_credentials'], scopes: ['openid'], secret: SECRET });
    const config = await relyingParty(app(), id, oidc.ClientSecretBasic(SECRET));
    await expect(oidc.clientCredentialsGrant(config, { scope: 'keycard:admin' })).rejects.toMatchObject({
      error: 'invalid_scope',
    });
  });

  for (const member of Object.keys(EXERCISERS)) {
    it(`every value of ${member} works for a registered client`, async () => {
      const values = advertised().filter(([listed]) => listed === member);
      expect(
        values.length,
        `${member} is in the table but not advertised: drop its exerciser`,
      ).toBeGreaterThan(0);
      for (const [, value] of values) {
        const exercise = exerciserOf(member, value);
        if (!exercise) throw new Error(`${member}: ${value} is advertised but has no exerciser`);
        await exercise();
      }
    });
  }
});
