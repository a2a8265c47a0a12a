import { errorBodySchema, MAX_BODY_BYTES, postCalls } from '@keycard/contract';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { postCall } from '../src/http/contract-call.ts';
import type { RouteModule } from '../src/http/route-module.ts';
import { apiRoutes } from '../src/http/routes/index.ts';
import { type CsrfSession, csrfHeaders, fetchCsrf } from './support/app.ts';
import { useTestService } from './support/test-service.ts';

const INTERNAL_DETAIL = 'relation "account" does not exist at /srv/keycard/secret-path.ts:42';

/** A contract call of its own path, so its answer does not depend on stored codes. */
const PROBE_PATH = '/api/test-contract';

/** Test-only routes: one contract call, one handler that fails, one that breaks its contract. */
const probeRoutes: RouteModule = (api) => {
  postCall(api, { ...postCalls.checkVerification, path: PROBE_PATH }, async (body) => ({
    isValid: body.verificationCode === 'good',
    userName: null,
  }));
  api.post('/api/test-crash', async () => {
    throw new Error(INTERNAL_DETAIL);
  });
  postCall(api, { ...postCalls.checkVerification, path: '/api/test-off-contract' }, async () =>
    JSON.parse('{"isValid":"yes","userName":null}'),
  );
};

/** An error body never carries a stack trace or an internal message, whatever the error. */
function expectNothingRevealed(response: LightMyRequestResponse): void {
  expect(errorBodySchema.safeParse(response.json()).success).toBe(true);
  expect(response.body).not.toMatch(/\n\s+at |\.ts:\d+|node_modules|relation "/);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
}

// Every error answer below, whichever test asks for it, is checked by expectNothingRevealed.
describe('bad input (DESIGN §2)', () => {
  let session: CsrfSession;
  const service = useTestService({
    routes: [...apiRoutes, probeRoutes],
    setUp: async ({ app }) => {
      session = await fetchCsrf(app);
    },
  });
  const app = () => service().app;

  async function call(options: InjectOptions): Promise<LightMyRequestResponse> {
    const response = await app().inject({
      method: 'POST',
      ...options,
      headers: { ...csrfHeaders(session), ...options.headers },
    });
    if (response.statusCode >= 400) expectNothingRevealed(response);
    return response;
  }
  const check = (payload: unknown) =>
    call({
      url: PROBE_PATH,
      payload: JSON.stringify(payload),
      headers: { 'content-type': 'application/json' },
    });

  it('accepts a call that matches the contract', async () => {
    const response = await check({ verificationCode: 'good', verificationType: 1 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ isValid: true, userName: null });
  });

  it.each([
    [{ verificationType: 1 }, 'verificationCode'],
    [{ verificationCode: 'x', verificationType: 9 }, 'verificationType'],
    [{ verificationCode: 'x', verificationType: '1' }, 'verificationType'],
    [{ verificationCode: 'x'.repeat(257), verificationType: 1 }, 'verificationCode'],
    [{ verificationCode: 'x', verificationType: 1, isAdmin: true }, 'isAdmin'],
    [[1, 2], 'body'],
    ['just a string', 'body'],
    [null, 'body'],
  ])('answers 400 naming the field for %j', async (payload, field) => {
    const response = await check(payload);
    expect(response.statusCode).toBe(400);
    expect(errorBodySchema.parse(response.json())).toMatchObject({ code: 'bad_request', field });
  });

  it('answers malformed or empty JSON with 400 naming the body', async () => {
    for (const payload of ['{"verificationCode":', '{"a":1}}', '']) {
      const response = await call({
        url: PROBE_PATH,
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'bad_request', field: 'body' });
    }
  });

  it('draws the line at exactly 16 KiB: 16384 bytes are read, 16385 are 413', async () => {
    expect(MAX_BODY_BYTES).toBe(16 * 1024);
    const sized = (bytes: number) => {
      const frame = JSON.stringify({ verificationCode: '', verificationType: 1 });
      return JSON.stringify({ verificationCode: 'x'.repeat(bytes - frame.length), verificationType: 1 });
    };
    const atLimit = await call({
      url: PROBE_PATH,
      payload: sized(16_384),
      headers: { 'content-type': 'application/json' },
    });
    // Read and validated: the code is too long for the contract, which names it.
    expect(atLimit.statusCode).toBe(400);
    expect(errorBodySchema.parse(atLimit.json())).toMatchObject({ field: 'verificationCode' });
    const overLimit = await call({
      url: PROBE_PATH,
      payload: sized(16_385),
      headers: { 'content-type': 'application/json' },
    });
    expect(overLimit.statusCode).toBe(413);
  });

  it('answers a body over 16 KiB with 413', async () => {
    const payload = JSON.stringify({ verificationCode: 'x'.repeat(17 * 1024), verificationType: 1 });
    expect(Buffer.byteLength(payload)).toBeGreaterThan(MAX_BODY_BYTES);
    const response = await call({
      url: PROBE_PATH,
      payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(413);
    expect(errorBodySchema.parse(response.json()).code).toBe('payload_too_large');
  });

  it('answers a body that is not JSON with 415', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const response = await call({
        url: PROBE_PATH,
        payload: 'verificationCode=x',
        headers: { 'content-type': type },
      });
      expect(response.statusCode).toBe(415);
      expect(errorBodySchema.parse(response.json()).code).toBe('unsupported_media_type');
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    for (const url of ['/api/nope', '/API/login', '/api']) {
      const response = await app().inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(errorBodySchema.parse(response.json()).code).toBe('not_found');
      expectNothingRevealed(response);
    }
  });

  it('answers a failing handler with a generic 500 that reveals nothing', async () => {
    const response = await call({ url: '/api/test-crash', payload: {} });
    expect(response.statusCode).toBe(500);
    expect(errorBodySchema.parse(response.json())).toEqual({
      code: 'internal_error',
      message: 'Something went wrong on our side.',
    });
  });

  it('treats an answer outside the contract as a 500, never passing it on', async () => {
    const response = await call({
      url: '/api/test-off-contract',
      payload: { verificationCode: 'x', verificationType: 1 },
    });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('yes');
  });
});
