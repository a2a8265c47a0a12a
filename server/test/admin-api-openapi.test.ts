import { ADMIN_SCOPE } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { useTestService } from './support/test-service.ts';

const service = useTestService({
  env: { PUBLIC_URL: 'https://login.example.test' },
});
const app = () => service().app;

interface Operation {
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: { 'application/json': { schema: { properties: object; required?: string[] } } } };
  responses: Record<string, unknown>;
}

describe('GET /admin/api/openapi.json', () => {
  it('serves an OpenAPI 3.1 document of every call without a token, secured by the admin scope', async () => {
    const response = await app().inject({ url: '/admin/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'https://login.example.test/admin/api' }]);
    expect(doc.components.securitySchemes.clientCredentials.flows.clientCredentials).toEqual({
      tokenUrl: 'https://login.example.test/oidc/token',
      scopes: { [ADMIN_SCOPE]: 'Call the admin API' },
    });
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/clients',
      '/clients/{id}',
      '/resource-servers',
      '/resource-servers/{identifier}',
      '/signing-keys',
      '/signing-keys/revoke',
      '/signing-keys/rotate',
      '/upstream-providers',
      '/upstream-providers/{providerId}',
      '/upstream-providers/{providerId}/domains/{domain}',
      '/users',
      '/users/{id}',
      '/users/{id}/change-email',
      '/users/{id}/disable',
      '/users/{id}/enable',
      '/users/{id}/expire-password',
      '/users/{id}/invite',
      '/users/{id}/language',
      '/users/{id}/unlock',
    ]);
  });

  it('describes bodies, path parameters and answers from the contract’s schemas', async () => {
    const doc = (await app().inject({ url: '/admin/api/openapi.json' })).json();
    const create: Operation = doc.paths['/users'].post;
    const body = create.requestBody?.content['application/json'].schema;
    expect(Object.keys(body?.properties ?? {})).toEqual(['email', 'name', 'password', 'language']);
    expect(body?.required).toEqual(['email', 'name']);
    // The errors each call declares (contract adminCalls): creating answers conflict, never not_found.
    expect(Object.keys(create.responses)).toEqual(['201', '400', '401', '403', '409']);
    const read: Operation = doc.paths['/users/{id}'].get;
    expect(Object.keys(read.responses)).toEqual(['200', '400', '401', '403', '404']);
    const find: Operation = doc.paths['/users'].get;
    expect(find.parameters).toEqual([
      expect.objectContaining({ name: 'email', in: 'query', required: true }),
    ]);
    for (const [path, operations] of Object.entries<Record<string, Operation>>(doc.paths)) {
      const placeholders = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      for (const operation of Object.values(operations)) {
        const inPath = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        expect(inPath, path).toEqual(placeholders);
      }
    }
  });
});
