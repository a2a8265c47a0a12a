import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '../support/fixtures.ts';
import { E2E_DIR } from '../support/paths.ts';

/**
 * An API and its machine client written outside Node, with Python's Authlib (e2e/clients/authlib_api.py):
 * the API is registered as a resource server (RFC 8707); the machine client asks for a token for it;
 * the API checks that token as on a request, verifying a JWT (RFC 9068) itself or introspecting an
 * opaque one (RFC 7662) as its own client, while another client introspecting it learns nothing.
 */

const PYTHON = '/usr/bin/python3';
const SCRIPT = path.join(E2E_DIR, 'clients', 'authlib_api.py');

interface ApiCheck {
  readonly format: 'jwt' | 'opaque';
  readonly claims: Record<string, unknown>;
  readonly bystander: Record<string, unknown> | null;
}

const suffix = () => randomBytes(4).toString('hex');

for (const format of ['jwt', 'opaque'] as const) {
  test(`a Python API accepts ${format === 'jwt' ? 'a JWT' : 'an opaque'} access token issued for it to a Python machine client`, async ({
    adminApi,
    baseURL,
  }) => {
    const run = suffix();
    const resource = `https://api-${run}.planner.example/`;
    const secret = () => randomBytes(24).toString('hex');
    const clients = { machine: secret(), api: secret(), other: secret() };
    for (const [role, clientSecret] of Object.entries(clients)) {
      await adminApi('POST', '/clients', {
        id: `${role}-${run}`,
        name: `Python ${role}`,
        secret: clientSecret,
        grantTypes: ['client_credentials'],
        ...(role === 'machine' ? { accessTokenFormat: format } : {}),
      });
    }
    await adminApi('POST', '/resource-servers', {
      identifier: resource,
      scopes: ['planning:read', 'planning:write'],
      accessTokenTtl: 300,
      introspectionClientId: `api-${run}`,
    });

    const { stdout } = await promisify(execFile)(PYTHON, [SCRIPT], {
      env: {
        PATH: process.env.PATH,
        KEYCARD_ISSUER: `${baseURL}/oidc`,
        RESOURCE: resource,
        SCOPE: 'planning:read',
        CLIENT_ID: `machine-${run}`,
        CLIENT_SECRET: clients.machine,
        API_CLIENT_ID: `api-${run}`,
        API_CLIENT_SECRET: clients.api,
        OTHER_CLIENT_ID: `other-${run}`,
        OTHER_CLIENT_SECRET: clients.other,
      },
      timeout: 30_000,
    });
    const check = JSON.parse(stdout) as ApiCheck;
    expect(check.format).toBe(format);
    expect(check.claims).toMatchObject({
      aud: resource,
      client_id: `machine-${run}`,
      scope: 'planning:read',
      iss: `${baseURL}/oidc`,
    });
    expect(Number(check.claims.exp) - Number(check.claims.iat)).toBe(300);
    // A JWT is the API's to verify; an opaque token is shown to the API alone.
    expect(check.bystander).toEqual(format === 'jwt' ? null : { active: false });
  });
}
