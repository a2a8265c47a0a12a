import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, productionEnv, type TestAppOptions } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';

// Issue 17: one JSON log line per request, with the request id its answer carries in X-Request-Id
// (and an error page shows as its reference: authorization-refusals.test.ts, protocol-outage.test.ts).

const testDb = useTestDatabase();
const opened: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of opened.splice(0)) await app.close();
});

async function appWith(options: TestAppOptions = {}): Promise<FastifyInstance> {
  const app = await buildTestApp(testDb().db, options);
  opened.push(app);
  return app;
}

/** The service's own ids: 8 characters of Crockford's base32. */
const SERVICE_ID = /^[0-9A-HJKMNP-TV-Z]{8}$/;

function csrfToken(app: FastifyInstance, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url: '/api/getcsrftoken', headers });
}

describe('one JSON log line per request, with the id its answer carries', () => {
  it('logs each request once when it is answered, its reqId the X-Request-Id of the answer', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
    const app = await appWith({ logger: { level: 'info', stream } });
    const call = await app.inject({ method: 'GET', url: '/api/getcsrftoken?ReturnUrl=%2Fsecret' });
    const refused = await app.inject({ method: 'POST', url: '/api/login', payload: {} });
    const ids = [call, refused].map((response) => String(response.headers['x-request-id']));
    for (const id of ids) expect(id).toMatch(SERVICE_ID);
    expect(new Set(ids).size).toBe(2);
    expect(lines.filter((line) => line.msg === 'request completed')).toEqual([
      expect.objectContaining({
        level: 30,
        reqId: ids[0],
        req: { method: 'GET', url: '/api/getcsrftoken', remoteAddress: '127.0.0.1' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
      expect.objectContaining({ level: 30, reqId: ids[1], res: { statusCode: 403 } }),
    ]);
    expect(lines.filter((line) => line.msg === 'incoming request')).toEqual([]);
  });

  it("takes a trusted proxy's well-formed X-Request-Id, and no one else's", async () => {
    const proxied = '3f2b8c1e-9a4d-4e6f-8b1a-2c3d4e5f6a7b';
    const direct = await appWith();
    expect((await csrfToken(direct, { 'x-request-id': proxied })).headers['x-request-id']).toMatch(
      SERVICE_ID,
    );

    const behindProxy = await appWith({ env: { TRUST_PROXY: 'true' } });
    expect((await csrfToken(behindProxy, { 'x-request-id': proxied })).headers['x-request-id']).toBe(proxied);
    for (const malformed of ['call-0800-123456', 'a'.repeat(65), 'abc def 0123456789abcdef']) {
      const replaced = await csrfToken(behindProxy, { 'x-request-id': malformed });
      expect(replaced.headers['x-request-id'], malformed).toMatch(SERVICE_ID);
    }
  });

  it('a request refused for its Host gets an id too', async () => {
    const app = await appWith({ env: productionEnv() });
    const response = await csrfToken(app, { host: 'evil.example' });
    expect(response.statusCode).toBe(421);
    expect(response.headers['x-request-id']).toMatch(SERVICE_ID);
  });
});
