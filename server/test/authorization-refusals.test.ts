import { ADMIN_SCOPE, isErrorReference } from '@keycard/contract';
import * as oidc from 'openid-client';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  authorizationUrl,
  follow,
  ISSUER,
  refusedToRedirectUri,
  relyingParty,
} from './support/authorization-client.ts';
import { CLIENT_ID, REDIRECT_URI, registerTestClient, TestBrowser } from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/** Every line the app logs, as pino writes it (one JSON object a line). */
const logged: string[] = [];

const service = useTestService({
  logger: { level: 'info', stream: { write: (line: string) => void logged.push(line) } },
  setUp: async ({ db }) => registerTestClient(db),
});
const app = () => service().app;

beforeEach(() => {
  logged.length = 0;
});

interface RefusalLine {
  level: number;
  msg: string;
  reference: string;
  clientId: string | null;
  redirectUri: string | null;
  reason: string;
  answer: 'error_page' | 'redirect_uri';
}

function refusalLines(): RefusalLine[] {
  return logged
    .map((line) => JSON.parse(line) as RefusalLine)
    .filter((line) => line.msg === 'protocol request refused');
}

/** The values a request carries that no log may hold: state, PKCE challenge, hint, a stray secret. */
const SECRETS = {
  state: 'state-4d1f0e9a',
  login_hint: 'ada.private@example.com',
  client_secret: 'secret-7c1b6f2e',
  code_verifier: 'verifier-1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d',
  nonce: 'nonce-99e1',
};

async function refusedOnErrorPage(configuration: oidc.Configuration, extra: Record<string, string>) {
  const { url } = await authorizationUrl(configuration, { ...SECRETS, ...extra });
  const challenge = url.searchParams.get('code_challenge') ?? '';
  const response = await follow(new TestBrowser(app()), url);
  expect(response.statusCode).toBe(303);
  const location = String(response.headers.location);
  const reference = /^\/error\/(\w+)$/.exec(location)?.[1];
  expect(isErrorReference(reference), location).toBe(true);
  // The reference is the request's id: its answer's X-Request-Id, its request log line's reqId.
  expect(response.headers['x-request-id']).toBe(reference);
  return { reference, challenge };
}

function expectNoSecretLogged(challenge: string) {
  const everything = logged.join('\n');
  for (const value of [...Object.values(SECRETS), challenge]) expect(everything).not.toContain(value);
}

describe('a refused authorization request shown on the error page', () => {
  it('unknown client_id: the page carries a reference; one log line names client, URI and reason', async () => {
    const stranger = new oidc.Configuration((await relyingParty(app())).serverMetadata(), 'no-such-client');
    oidc.allowInsecureRequests(stranger);
    const { reference, challenge } = await refusedOnErrorPage(stranger, {});
    expect(refusalLines()).toEqual([
      expect.objectContaining({
        level: 40,
        reference,
        clientId: 'no-such-client',
        redirectUri: REDIRECT_URI,
        reason: 'unknown_client',
        answer: 'error_page',
      }),
    ]);
    const requestLines = logged
      .map((line) => JSON.parse(line) as { reqId?: string; msg: string; res?: { statusCode: number } })
      .filter((line) => line.reqId === reference && line.msg === 'request completed');
    expect(requestLines).toEqual([expect.objectContaining({ res: { statusCode: 303 } })]);
    expectNoSecretLogged(challenge);
  });

  it('unregistered redirect_uri: invalid_redirect_uri, never sent to that URI', async () => {
    const elsewhere = 'https://attacker.example/callback';
    const { reference, challenge } = await refusedOnErrorPage(await relyingParty(app()), {
      redirect_uri: elsewhere,
    });
    expect(refusalLines()).toEqual([
      expect.objectContaining({
        reference,
        clientId: CLIENT_ID,
        redirectUri: elsewhere,
        reason: 'invalid_redirect_uri',
        answer: 'error_page',
      }),
    ]);
    expectNoSecretLogged(challenge);
  });

  it('a second fault beside an unregistered redirect_uri still makes one line, with the reason that stopped it', async () => {
    await refusedOnErrorPage(await relyingParty(app()), {
      redirect_uri: 'https://attacker.example/callback',
      scope: `openid ${ADMIN_SCOPE}`,
    });
    expect(refusalLines().map((line) => line.reason)).toEqual(['invalid_redirect_uri']);
  });

  it('a control character in a parameter: the page carries the reference of the line naming the parameter', async () => {
    const query = new URLSearchParams({ client_id: CLIENT_ID, state: 'st\u0007ate', response_type: 'code' });
    const response = await app().inject({ url: `/oidc/auth?${query}` });
    expect(response.statusCode).toBe(303);
    const reference = /^\/error\/(\w+)$/.exec(String(response.headers.location))?.[1];
    expect(isErrorReference(reference)).toBe(true);
    expect(refusalLines()).toEqual([
      expect.objectContaining({
        reference,
        reason: 'invalid_request',
        answer: 'error_page',
        description: expect.stringMatching(/^state /),
      }),
    ]);
    // The value itself is not written.
    expect(logged.join('')).not.toContain('st\\u0007ate');
  });

  it('each refusal gets a reference of its own', async () => {
    const configuration = await relyingParty(app());
    const first = await refusedOnErrorPage(configuration, { redirect_uri: 'https://a.example/cb' });
    const second = await refusedOnErrorPage(configuration, { redirect_uri: 'https://a.example/cb' });
    expect(first.reference).not.toBe(second.reference);
  });
});

describe('a refusal sent to the registered redirect URI (RFC 6749 §4.1.2.1, RFC 9207)', () => {
  async function refusedToClient(extra: Record<string, string>, drop: string[] = []) {
    const configuration = await relyingParty(app());
    const { url, verifier, state } = await authorizationUrl(configuration, extra);
    for (const name of drop) url.searchParams.delete(name);
    // The relying party's library accepts the response as the provider's and reports its error.
    return refusedToRedirectUri(app(), configuration, { url, verifier, state });
  }

  it('a scope the client may not ask for: invalid_scope, logged with the client and URI', async () => {
    const { error } = await refusedToClient({ scope: `openid ${ADMIN_SCOPE}` });
    expect(error).toBe('invalid_scope');
    const [line, ...more] = refusalLines();
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      clientId: CLIENT_ID,
      redirectUri: REDIRECT_URI,
      reason: 'invalid_scope',
      answer: 'redirect_uri',
    });
    expect(isErrorReference(line?.reference)).toBe(true);
  });

  it('no PKCE: invalid_request to the client, pkce_required in the log', async () => {
    const { error } = await refusedToClient({}, ['code_challenge', 'code_challenge_method']);
    expect(error).toBe('invalid_request');
    expect(refusalLines()).toEqual([
      expect.objectContaining({ clientId: CLIENT_ID, reason: 'pkce_required', answer: 'redirect_uri' }),
    ]);
  });

  it('an unsupported response_type: its own reason, answered in the fragment that type asks for', async () => {
    const { url, state } = await authorizationUrl(await relyingParty(app()), { response_type: 'token' });
    const response = await follow(new TestBrowser(app()), url);
    const answer = new URL(String(response.headers.location));
    expect(answer.origin + answer.pathname).toBe(REDIRECT_URI);
    const fragment = new URLSearchParams(answer.hash.slice(1));
    expect(Object.fromEntries(fragment)).toMatchObject({
      error: 'unsupported_response_type',
      state,
      iss: ISSUER,
    });
    expect(refusalLines()).toEqual([
      expect.objectContaining({ reason: 'unsupported_response_type', answer: 'redirect_uri' }),
    ]);
  });

  it('a request that is accepted logs no refusal', async () => {
    const { url } = await authorizationUrl(await relyingParty(app()));
    const response = await follow(new TestBrowser(app()), url);
    expect(String(response.headers.location)).toMatch(/^\/\?ReturnUrl=/);
    expect(refusalLines()).toEqual([]);
  });
});
