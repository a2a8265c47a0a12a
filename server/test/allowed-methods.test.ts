import { errorBodySchema, getCalls, postCalls } from '@keycard/contract';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_ROUTES } from '../src/oidc/protocol-routes.ts';
import { useTestService } from './support/test-service.ts';

const service = useTestService();
const app = () => service().app;

type Method = NonNullable<InjectOptions['method']>;
const EVERY_METHOD: readonly Method[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

async function expectNotAllowed(
  server: FastifyInstance,
  method: Method,
  url: string,
  allow: string,
): Promise<void> {
  const response = await server.inject({ method, url });
  expect(response.statusCode, `${method} ${url}`).toBe(405);
  expect(response.headers.allow, `${method} ${url}`).toBe(allow);
  // A HEAD answer has no body; every other one is the service's error body.
  if (method !== 'HEAD') expect(errorBodySchema.parse(response.json()).code).toBe('method_not_allowed');
}

describe('405 Method Not Allowed with Allow (RFC 9110 §15.5.6)', () => {
  it('answers every other method on each POST call of SPEC §7 with Allow: POST', async () => {
    for (const call of Object.values(postCalls)) {
      for (const method of EVERY_METHOD.filter((m) => m !== 'POST')) {
        await expectNotAllowed(app(), method, call.path, 'POST');
      }
    }
  });

  it('answers every other method on each GET call of SPEC §7 with Allow: GET, HEAD', async () => {
    for (const call of Object.values(getCalls)) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'] as const) {
        await expectNotAllowed(app(), method, call.path, 'GET, HEAD');
      }
    }
  });

  it("answers a method no admin API call of a path takes with that path's methods", async () => {
    const doc = (await app().inject({ url: '/admin/api/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    for (const [path, operations] of Object.entries(doc.paths)) {
      const url = `/admin/api${path.replace(/\{[^}]+\}/g, 'sample')}`;
      const declared = Object.keys(operations).map((method) => method.toUpperCase());
      const allowed = EVERY_METHOD.filter(
        (method) => declared.includes(method) || (method === 'HEAD' && declared.includes('GET')),
      );
      for (const method of EVERY_METHOD.filter((m) => !allowed.includes(m))) {
        await expectNotAllowed(app(), method, url, allowed.join(', '));
      }
    }
  });

  it("answers a method the provider does not take on each of its endpoints with the provider's methods", async () => {
    for (const { path, methods } of PROTOCOL_ROUTES) {
      const url = `/oidc${path.replace(/:[^/]+/g, 'sample')}`;
      for (const method of EVERY_METHOD.filter((m) => !methods.includes(m))) {
        await expectNotAllowed(app(), method, url, methods.join(', '));
      }
    }
  });

  it('lists only methods the provider really takes, and every endpoint of its discovery document', async () => {
    for (const { path, methods } of PROTOCOL_ROUTES) {
      const url = `/oidc${path.replace(/:[^/]+/g, 'sample')}`;
      for (const method of methods) {
        // A preflight is answered for a browser's cross-origin call only, which names its origin.
        const preflight = { origin: 'https://planner.example', 'access-control-request-method': 'POST' };
        const headers = method === 'OPTIONS' ? preflight : {};
        const response = await app().inject({ method: method as Method, url, headers });
        // The provider's own unknown-route answer is the service's not_found (oidc/provider.ts).
        expect(response.statusCode, `${method} ${url}`).not.toBe(405);
        expect(response.statusCode === 404 && response.body.includes('not_found'), `${method} ${url}`).toBe(
          false,
        );
      }
    }
    const discovery = (await app().inject({ url: '/oidc/.well-known/openid-configuration' })).json<
      Record<string, unknown>
    >();
    const endpoints = Object.entries(discovery)
      .filter(([name, value]) => /_(endpoint|uri)$/.test(name) && typeof value === 'string')
      .map(([, value]) => new URL(String(value)).pathname)
      .filter((path) => path.startsWith('/oidc/'));
    expect(endpoints.length).toBeGreaterThan(5);
    const listed = PROTOCOL_ROUTES.map(({ path }) => `/oidc${path}`);
    for (const endpoint of endpoints) expect(listed, endpoint).toContain(endpoint);
  });

  it("answers anything but GET and HEAD on the SPA's pages and files with Allow: GET, HEAD", async () => {
    for (const url of [
      '/',
      '/login',
      '/unlock/abc',
      '/resetPassword/1/x',
      '/images/background/dark/1920/login.jpg',
    ]) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'] as const) {
        await expectNotAllowed(app(), method, url, 'GET, HEAD');
      }
    }
  });

  it('leaves an unknown path a 404, whatever the method', async () => {
    // (A TRACE to an unknown /api path meets the CSRF check first, as any unsafe method there does.)
    const unknown = [
      ['/api/nope', ['GET', 'OPTIONS']],
      ['/admin/api/nope', ['GET', 'TRACE', 'OPTIONS']],
      ['/oidc/nope', ['GET', 'TRACE', 'OPTIONS']],
      // The mount is case-sensitive, as every route is: nothing is there to take any method.
      ['/OIDC/token', ['GET', 'OPTIONS']],
    ] as const;
    for (const [url, methods] of unknown) {
      for (const method of methods) {
        const response = await app().inject({ method, url });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.headers.allow).toBeUndefined();
      }
    }
  });
});
