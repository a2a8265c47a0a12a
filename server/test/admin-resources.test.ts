import { describe, expect, it } from 'vitest';
import { addClient } from '../src/provisioning/client-operations.ts';
import { runAdmin } from './admin-harness.ts';
import { useTestDatabase } from './support/database.ts';

const testDb = useTestDatabase();
const db = () => testDb().db;
const SECRET = 'k3Y-secret-0123456789abcdefghijklmnop';
const API = 'https://api.planner.example/';
const ENV = {
  RESOURCE_SERVERS: JSON.stringify([{ identifier: 'https://reports.example/', scopes: ['reports:read'] }]),
};

function admin(argv: string[], stdin?: string) {
  return runAdmin(argv, { db: db(), stdin, env: ENV });
}

describe('resource:add, resource:list, resource:update, resource:remove', () => {
  it('registers, lists, changes and removes a resource server', async () => {
    await addClient(
      { db: db() },
      { id: 'planning-api', name: 'Planning API', secret: SECRET, grantTypes: ['client_credentials'] },
    );
    const added = await admin([
      'resource:add',
      '--identifier',
      API,
      '--scope',
      'planning:read',
      '--scope',
      'planning:write',
      '--ttl',
      '300',
      '--alg',
      'ES256',
      '--introspection-client',
      'planning-api',
    ]);
    expect(added.code).toBe(0);
    expect(added.stdout).toBe(
      [
        `registered resource server ${API}`,
        '  scopes               planning:read planning:write',
        '  token lifetime       300 s',
        '  signing algorithm    ES256',
        '  clients              every registered client',
        '  introspects as       planning-api',
        '',
      ].join('\n'),
    );

    const list = await admin(['resource:list']);
    expect(list.stdout).toContain(`${API}\n  scopes               planning:read planning:write`);
    expect(list.stdout).toContain(
      'https://reports.example/  (RESOURCE_SERVERS)\n  scopes               reports:read',
    );

    const changed = await admin([
      'resource:update',
      '--identifier',
      API,
      '--client',
      'planning-api',
      '--default-alg',
      '--no-introspection-client',
    ]);
    expect(changed.code).toBe(0);
    expect(changed.stdout).toContain("  signing algorithm    the provider's default");
    expect(changed.stdout).toContain('  clients              planning-api');
    expect(changed.stdout).toContain('  introspects as       (none)');
    expect(changed.stdout).toContain('  token lifetime       300 s');

    const removed = await admin(['resource:remove', '--identifier', API]);
    expect(removed).toMatchObject({ code: 0, stdout: `removed resource server ${API}\n` });
    expect((await admin(['resource:list'])).stdout).not.toContain(API);
  });

  it('names the flag of a bad value, and where an environment entry is changed', async () => {
    const ttl = await admin(['resource:add', '--identifier', API, '--scope', 'a', '--ttl', 'soon']);
    expect(ttl.code).not.toBe(0);
    expect(ttl.stderr).toContain('--ttl');
    const scope = await admin(['resource:add', '--identifier', API, '--scope', 'openid']);
    expect(scope.stderr).toContain('--scope');
    expect(scope.stderr).toContain('belong to sign-in');
    const client = await admin(['resource:add', '--identifier', API, '--scope', 'a', '--client', 'ghost']);
    expect(client.stderr).toContain('--client');
    expect(client.stderr).toContain('no client with the id ghost');
    const both = await admin(['resource:update', '--identifier', API, '--client', 'x-app', '--any-client']);
    expect(both).toMatchObject({
      code: 2,
      stderr: 'admin: invalid --client: give it or --any-client, not both\n',
    });
    const algs = await admin(['resource:update', '--identifier', API, '--alg', 'ES256', '--default-alg']);
    expect(algs.stderr).toBe('admin: invalid --alg: give it or --default-alg, not both\n');
    const environment = await admin(['resource:remove', '--identifier', 'https://reports.example/']);
    expect(environment.code).not.toBe(0);
    expect(environment.stderr).toContain('is set by RESOURCE_SERVERS: change it there');
  });
});

describe('client:add --access-token-format', () => {
  it('registers a client whose tokens for resource servers are opaque', async () => {
    const run = await admin(
      [
        'client:add',
        '--id',
        'opaque-app',
        '--name',
        'Opaque',
        '--redirect-uri',
        'https://opaque.example/cb',
        '--secret-stdin',
        '--access-token-format',
        'opaque',
      ],
      SECRET,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('; opaque access tokens for resource servers');
  });

  it('refuses an unknown format, and any but opaque for an admin client, naming the flag', async () => {
    const unknown = await admin([
      'client:add',
      '--id',
      'saml-app',
      '--name',
      'S',
      '--redirect-uri',
      'https://s.example/cb',
      '--access-token-format',
      'saml',
    ]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('--access-token-format');
    expect(unknown.stderr).toContain('must be one of jwt, opaque');
    const adminJwt = await admin(
      [
        'client:add',
        '--id',
        'ops',
        '--name',
        'Ops',
        '--admin',
        '--secret-stdin',
        '--access-token-format',
        'jwt',
      ],
      SECRET,
    );
    expect(adminJwt.code).not.toBe(0);
    expect(adminJwt.stderr).toContain('--access-token-format');
    expect(adminJwt.stderr).toContain("an admin client's tokens are opaque");
  });
});
