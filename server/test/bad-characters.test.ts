import {
  BAD_CHARACTER_MESSAGE,
  type CallRequest,
  errorBodySchema,
  getCalls,
  type PostCallName,
  postCalls,
} from '@keycard/contract';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { adminClientOf, registerAdminClient } from './admin-api-kit.ts';
import { type CsrfSession, csrfHeaders, fetchCsrf } from './support/app.ts';
import { CLIENT_ID, POST_LOGOUT_URI, REDIRECT_URI, registerTestClient } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/**
 * DESIGN §2 Bad input, driven by property: a control character (U+0000–U+001F, U+007F) or an unpaired
 * surrogate in any field of every call of SPEC §7, every route of the admin API's OpenAPI document and
 * every protocol endpoint is refused with a 400 naming the field, never a 5xx and never a value that
 * reaches the database. Runs are bounded (RUNS per field) so the file stays a few seconds long.
 */
const RUNS = 4;

const CONTROL_CODES = [...Array.from({ length: 0x20 }, (_, code) => code), 0x7f];
const control = fc.constantFrom(...CONTROL_CODES).map((code) => String.fromCharCode(code));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
/** Printable text around one bad character, so the bad one is neither alone nor always first. */
const around = (bad: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.string({ maxLength: 6 }), bad, fc.string({ maxLength: 6 }))
    .map(([before, char, after]) => `${before}${char}${after}`);
/** A JSON string can carry both kinds. */
const jsonBad = around(fc.oneof(control, loneSurrogate));
/** A URL carries UTF-8, which has no form for a lone surrogate: control characters only. */
const urlBad = around(control);

const service = useTestService({
  env: { RATE_LIMIT_PER_MINUTE: '1000000' },
  setUp: async ({ db }) => {
    await registerTestClient(db);
    await registerAdminClient(db);
  },
});
const app = () => service().app;

function expectNo5xx(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBeLessThan(500);
}

function expectRefusal(
  response: LightMyRequestResponse,
  code: 'bad_request' | 'invalid_input',
  field: string,
) {
  expectNo5xx(response);
  expect(response.statusCode, response.body).toBe(400);
  expect(errorBodySchema.parse(response.json())).toMatchObject({ code, field });
  expect(response.json().message).toContain(BAD_CHARACTER_MESSAGE);
}

describe('the calls of SPEC §7 refuse bad characters in every field', () => {
  let session: CsrfSession | undefined;
  const csrf = async () => {
    session ??= await fetchCsrf(app());
    return csrfHeaders(session);
  };

  /** A well-formed body of each call; each field in turn is replaced by a bad value. */
  const VALID: { [N in PostCallName]: CallRequest<N> } = {
    logout: { logoutId: 'a-logout-id', confirmed: true },
    forgotPassword: { email: 'ada@example.com', returnUrl: '/oidc/auth/x', locationSearch: '?ReturnUrl=%2F' },
    checkVerification: { verificationCode: 'some-code', verificationType: 1 },
    resetPassword: {
      verificationCode: 'some-code',
      verificationType: 1,
      newPassword: 'Violet-Harbour-Lantern-93',
      redirectUrl: 'https://planner.example/',
    },
    unlockUser: { verificationCode: 'some-code', redirectUrl: 'https://planner.example/' },
    verifyNewEmail: { verificationCode: 'some-code', redirectUrl: 'https://planner.example/' },
    login: { Username: 'ada@example.com', Password: 'a password', ReturnUrl: '/oidc/auth/x' },
    checkUsername: { Username: 'ada@example.com', ReturnUrl: '/oidc/auth/x' },
  };
  const fields = (Object.keys(VALID) as PostCallName[]).flatMap((name) =>
    Object.keys(VALID[name]).map((field) => [postCalls[name].path, name, field] as const),
  );

  it('covers every field of every POST call of the contract', () => {
    const contractFields = Object.entries(postCalls).flatMap(([name, call]) =>
      Object.keys(call.request.shape).map((field) => `${name}.${field}`),
    );
    expect(fields.map(([, name, field]) => `${name}.${field}`).sort()).toEqual(contractFields.sort());
  });

  it.each(fields)('POST %s (%s) refuses one in %s', async (path, name, field) => {
    const headers = await csrf();
    await fc.assert(
      fc.asyncProperty(jsonBad, async (bad) => {
        const response = await app().inject({
          method: 'POST',
          url: path,
          headers,
          payload: { ...VALID[name], [field]: bad },
        });
        expectRefusal(response, 'bad_request', field);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses one in a property name, naming it with the character escaped', async () => {
    const response = await app().inject({
      method: 'POST',
      url: postCalls.checkUsername.path,
      headers: await csrf(),
      payload: { ...VALID.checkUsername, 'x\u0000y': 1 },
    });
    expectRefusal(response, 'bad_request', 'x\\u0000y');
  });

  it('GET /api/i18n/getresource refuses one in requestedLanguageCode', async () => {
    await fc.assert(
      fc.asyncProperty(urlBad, async (bad) => {
        const query = new URLSearchParams({ requestedLanguageCode: bad });
        const response = await app().inject({ url: `${getCalls.getResource.path}?${query}` });
        expectRefusal(response, 'bad_request', 'requestedLanguageCode');
      }),
      { numRuns: RUNS },
    );
  });

  // Navigations: their refusal is the error page (contract getCalls), never a 5xx or a redirect upstream.
  it.each([
    [
      getCalls.redirectToExternalIdentityProvider.path,
      ['returnUrl', 'externalIdentityProviderGuid', 'login_hint'],
    ],
    ['/api/ExternalIdentityProviderCallback', ['code', 'state', 'iss', 'error']],
  ])('GET %s sends a bad character in any parameter to the error page', async (path, names) => {
    const valid: Record<string, string> = {
      returnUrl: '/oidc/auth/x',
      externalIdentityProviderGuid: '00000000-0000-4000-8000-000000000000',
      login_hint: 'ada@example.com',
    };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), urlBad, async (name, bad) => {
        const query = new URLSearchParams({ ...valid, [name]: bad });
        const response = await app().inject({ url: `${path}?${query}` });
        expectNo5xx(response);
        expect(response.statusCode).toBe(302);
        expect(response.headers.location).toMatch(/\/error$/);
      }),
      { numRuns: RUNS * names.length },
    );
  });
});

interface Operation {
  parameters?: { name: string; in: 'path' | 'query' }[];
  requestBody?: { content: { 'application/json': { schema: { properties?: Record<string, unknown> } } } };
}

describe('every route of the admin API refuses bad characters in every field', () => {
  /** Each (method, path template, where, field) the OpenAPI document describes. */
  async function documentedFields() {
    const doc = (await app().inject({ url: '/admin/api/openapi.json' })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    return Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) => [
        ...(operation.parameters ?? []).map((parameter) => ({
          method,
          path,
          where: parameter.in,
          field: parameter.name,
        })),
        ...Object.keys(operation.requestBody?.content['application/json'].schema.properties ?? {}).map(
          (field) => ({ method, path, where: 'body' as const, field }),
        ),
      ]),
    );
  }

  /** A valid-looking value of each path parameter, so only the field under test is wrong. */
  const PATH_VALUES: Record<string, string> = {
    id: '00000000-0000-4000-8000-000000000000',
    providerId: '00000000-0000-4000-8000-000000000000',
    domain: 'example.com',
    identifier: 'https://api.example/',
  };

  it('drives each documented parameter and body field with bad characters', async () => {
    const api = await adminClientOf(app());
    const fields = await documentedFields();
    // The document's 15 paths name these fields; a new one is driven without a change here.
    expect(fields.length).toBeGreaterThanOrEqual(30);
    for (const { method, path, where, field } of fields) {
      const bad = where === 'body' ? jsonBad : urlBad;
      await fc.assert(
        fc.asyncProperty(bad, async (value) => {
          const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
            encodeURIComponent(where === 'path' && name === field ? value : (PATH_VALUES[name] ?? 'x')),
          );
          const query = where === 'query' ? `?${new URLSearchParams({ [field]: value })}` : '';
          const payload = where === 'body' ? { [field]: value } : undefined;
          const response = await api(method.toUpperCase() as 'GET', `${url}${query}`, payload);
          expect(`${method} ${path} ${field}: ${response.statusCode}`).toBe(
            `${method} ${path} ${field}: 400`,
          );
          expectRefusal(response, 'invalid_input', field);
        }),
        { numRuns: RUNS },
      );
    }
  });

  it('refuses one nested in a loose member of a client’s keys, naming where it is', async () => {
    const api = await adminClientOf(app());
    const response = await api('POST', '/clients', {
      id: 'keys-client',
      name: 'Keys',
      jwks: { keys: [{ kty: 'EC', crv: 'P-256\u0000' }] },
    });
    expectRefusal(response, 'invalid_input', 'jwks.keys.0.crv');
  });
});

describe('every protocol endpoint refuses bad characters with invalid_request', () => {
  /** An authorization request's parameters (OIDC Core §3.1.2.1, RFC 7636, RFC 8707). */
  const AUTHORIZATION = {
    client_id: CLIENT_ID,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: 'openid email',
    state: 'state-1',
    nonce: 'nonce-1',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    prompt: 'login',
    login_hint: 'ada@example.com',
    ui_locales: 'de',
    max_age: '60',
    acr_values: 'urn:example',
    id_token_hint: 'x.y.z',
    claims: '{}',
    resource: 'https://api.example/',
  };

  /** The parameters each endpoint reads (RFC 6749, 7009, 7662, 9126, OIDC Core and RP-Initiated Logout). */
  const ENDPOINTS = {
    // POST to the authorization and end-session endpoints is off (the provider's enableHttpPostMethods):
    // 405 before any parameter is read (allowed-methods.test.ts).
    authorization_endpoint: { methods: ['GET'], valid: AUTHORIZATION },
    pushed_authorization_request_endpoint: {
      methods: ['POST'],
      valid: { ...AUTHORIZATION, client_secret: 's' },
    },
    token_endpoint: {
      methods: ['POST'],
      valid: {
        grant_type: 'authorization_code',
        code: 'some-code',
        redirect_uri: REDIRECT_URI,
        code_verifier: 'v'.repeat(43),
        client_id: CLIENT_ID,
        client_secret: 'secret',
        refresh_token: 'some-token',
        scope: 'openid',
        resource: 'https://api.example/',
        client_assertion: 'x.y.z',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      },
    },
    introspection_endpoint: {
      methods: ['POST'],
      valid: {
        token: 'some-token',
        token_type_hint: 'access_token',
        client_id: CLIENT_ID,
        client_secret: 's',
      },
    },
    revocation_endpoint: {
      methods: ['POST'],
      valid: {
        token: 'some-token',
        token_type_hint: 'access_token',
        client_id: CLIENT_ID,
        client_secret: 's',
      },
    },
    end_session_endpoint: {
      methods: ['GET'],
      valid: {
        id_token_hint: 'x.y.z',
        post_logout_redirect_uri: POST_LOGOUT_URI,
        state: 'state-1',
        client_id: CLIENT_ID,
        logout_hint: 'ada@example.com',
        ui_locales: 'de',
      },
    },
    userinfo_endpoint: { methods: ['GET', 'POST'], valid: { access_token: 'some-token' } },
    jwks_uri: { methods: ['GET'], valid: { unused: 'x' } },
  } as const;

  /** The endpoints a person's browser is sent to, which answer with a page. */
  const PERSON_FACING: ReadonlySet<string> = new Set(['authorization_endpoint', 'end_session_endpoint']);

  it('knows every endpoint the discovery document names', async () => {
    const discovery = (await app().inject({ url: '/oidc/.well-known/openid-configuration' })).json();
    const named = Object.keys(discovery).filter((key) => key.endsWith('_endpoint') || key === 'jwks_uri');
    expect(named.sort()).toEqual(Object.keys(ENDPOINTS).sort());
  });

  it.each(Object.entries(ENDPOINTS))(
    '%s refuses one in any parameter, in the query or the form',
    async (key, endpoint) => {
      const discovery = (await app().inject({ url: '/oidc/.well-known/openid-configuration' })).json();
      const path = new URL(discovery[key]).pathname;
      const names = Object.keys(endpoint.valid);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...endpoint.methods),
          fc.constantFrom(...names),
          urlBad,
          async (method, name, bad) => {
            const params = new URLSearchParams({ ...endpoint.valid, [name]: bad }).toString();
            const response = await app().inject(
              method === 'GET'
                ? { method, url: `${path}?${params}` }
                : {
                    method,
                    url: path,
                    headers: { 'content-type': 'application/x-www-form-urlencoded' },
                    payload: params,
                  },
            );
            expectNo5xx(response);
            if (PERSON_FACING.has(key)) {
              // A person's browser lands on the error page, with the reference of the log line.
              expect(response.statusCode, response.body).toBe(303);
              expect(response.headers.location).toBe(`/error/${response.headers['x-request-id']}`);
              return;
            }
            expect(response.statusCode, response.body).toBe(400);
            expect(response.json()).toEqual({
              error: 'invalid_request',
              error_description: `${name} ${BAD_CHARACTER_MESSAGE}`,
            });
          },
        ),
        { numRuns: RUNS * names.length },
      );
    },
  );

  it('hands a clean form on to the provider unchanged', async () => {
    const response = await app().inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'unknown',
        client_id: CLIENT_ID,
      }).toString(),
    });
    // The provider read the form: it knows the client and the grant, and refuses the unknown code.
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_grant');
    const empty = await app().inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
    // A form in another charset is read in it, as the provider reads it: UTF-16's zero bytes are no
    // NUL characters, so the provider, not this check, answers.
    const utf16 = await app().inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-16le' },
      payload: Buffer.from(`grant_type=authorization_code&code=unknown&client_id=${CLIENT_ID}`, 'utf16le'),
    });
    expect(utf16.statusCode).toBe(400);
    expect(utf16.json().error_description).not.toContain(BAD_CHARACTER_MESSAGE);
    // An empty body is no form to the provider (as before the check): its own invalid_request.
    expect(empty.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('never answers 5xx to percent-encoded bytes that are no UTF-8 (a surrogate’s bytes)', async () => {
    for (const url of [
      '/oidc/auth?client_id=%ED%A0%80',
      '/api/i18n/getresource?requestedLanguageCode=%ED%A0%80',
    ]) {
      expectNo5xx(await app().inject({ url }));
    }
  });
});
