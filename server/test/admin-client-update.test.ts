import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oidcClients } from '../src/store/tables/index.ts';
import {
  adminCall,
  adminEvents,
  adminToken,
  authorizationAnswer,
  requestToken,
  useAdminApi,
} from './admin-api-kit.ts';
import { runAdmin } from './admin-harness.ts';

/**
 * client:show and client:update (DESIGN §5's CLI beside the admin API's PATCH): the same operations,
 * run against the database of a running service, which then serves what the CLI changed.
 */

const { service, api } = useAdminApi();
const app = () => service().app;
const db = () => service().db;
const OLD_SECRET = 'rota-old-secret-0123456789abcdefghijkl';
const NEW_SECRET = 'rota-new-secret-0123456789abcdefghijkl';

function admin(argv: string[], stdin?: string) {
  return runAdmin(argv, { db: db(), stdin });
}

async function clientRow(clientId: string) {
  const [row] = await db().select().from(oidcClients).where(eq(oidcClients.clientId, clientId));
  return row;
}

async function addPlanner(id: string, ...more: string[]) {
  const run = await admin([
    'client:add',
    '--id',
    id,
    '--name',
    'Planner',
    '--redirect-uri',
    `https://${id}.example/cb`,
    ...more,
  ]);
  expect(run.code).toBe(0);
}

describe('client:show', () => {
  it('prints a registration as client:add told it, never its secret; an unknown id is exit 1', async () => {
    await addPlanner('shown', '--backchannel-logout-uri', 'https://shown.example/bc');
    expect((await clientRow('shown'))?.clientSecret).toBeNull();
    expect((await admin(['client:update', '--id', 'shown', '--secret-stdin'], `${NEW_SECRET}\n`)).code).toBe(
      0,
    );
    const run = await admin(['client:show', '--id', 'shown']);
    expect(run).toMatchObject({
      code: 0,
      stdout:
        // A public client always used PKCE; made confidential, it keeps requiring it.
        'confidential client shown ("Planner", PKCE) with 1 redirect URI and 0 post-logout URIs;' +
        ' grant types authorization_code; scopes openid email profile;' +
        ' token endpoint authentication client_secret_basic;' +
        ' back-channel logout to https://shown.example/bc\n',
      stdinRead: false,
    });
    expect(run.stdout).not.toContain(NEW_SECRET);
    expect((await admin(['client:show', '--id', 'shown', '--json'])).json().result).toMatchObject({
      clientId: 'shown',
      kind: 'confidential',
      backchannelLogoutUri: 'https://shown.example/bc',
    });
    expect(await admin(['client:show', '--id', 'nobody-here'])).toMatchObject({
      code: 1,
      stderr: 'admin: no client with the id nobody-here\n',
    });
  });
});

describe('client:list and GET /admin/api/clients', () => {
  it('list every registered client by id, never a secret', async () => {
    const secret = 'listed-secret-0123456789abcdefghijklmn';
    expect(
      (
        await api('POST', '/clients', {
          id: 'zz-listed',
          name: 'Zed',
          redirectUris: ['https://zed.example/cb'],
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await api('POST', '/clients', {
          id: 'aa-listed',
          name: 'Ace',
          redirectUris: ['https://ace.example/cb'],
          secret,
        })
      ).statusCode,
    ).toBe(201);

    const listed = await api('GET', '/clients');
    expect(listed.statusCode).toBe(200);
    const ids = (listed.json() as { clients: { clientId: string }[] }).clients.map(
      (client) => client.clientId,
    );
    expect(ids).toEqual([...ids].sort());
    expect(ids).toEqual(expect.arrayContaining(['aa-listed', 'zz-listed', 'ops-console']));
    expect(listed.json().clients).toContainEqual(
      expect.objectContaining({
        clientId: 'aa-listed',
        kind: 'confidential',
        tokenEndpointAuthMethod: 'client_secret_basic',
      }),
    );
    expect(listed.body).not.toContain(secret);

    const run = await admin(['client:list']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(ids.length);
    expect(lines).toContain(
      'confidential client aa-listed ("Ace") with 1 redirect URI and 0 post-logout URIs;' +
        ' grant types authorization_code; scopes openid email profile;' +
        ' token endpoint authentication client_secret_basic',
    );
    expect(lines.findIndex((line) => line.includes(' aa-listed '))).toBeLessThan(
      lines.findIndex((line) => line.includes(' zz-listed ')),
    );
    expect(run.stdout).not.toContain(secret);
    expect((await admin(['client:list', '--json'])).json()).toMatchObject({
      result: { clients: expect.arrayContaining([expect.objectContaining({ clientId: 'zz-listed' })]) },
    });
  });
});

describe('client:update', () => {
  it('replaces the URIs and the name: the running provider takes the new redirect URI, not the old one', async () => {
    await addPlanner('moved');
    const run = await admin([
      'client:update',
      '--id',
      'moved',
      '--name',
      'Planner Two',
      '--redirect-uri',
      'https://new.moved.example/cb',
      '--post-logout-uri',
      'https://new.moved.example/bye',
    ]);
    expect(run).toMatchObject({
      code: 0,
      stdout:
        'changed public client moved ("Planner Two", PKCE) with 1 redirect URI and 1 post-logout URI;' +
        ' grant types authorization_code; scopes openid email profile; token endpoint authentication none\n',
      stdinRead: false,
    });
    const accepted = await authorizationAnswer(app(), 'moved', 'https://new.moved.example/cb');
    expect(accepted.status).toBe(303);
    expect(decodeURIComponent(accepted.location)).toContain('product=Planner+Two');
    const refused = await authorizationAnswer(app(), 'moved', 'https://moved.example/cb');
    expect(refused.location).toMatch(/^\/error\/[0-9A-Z]{8}$/);
    expect(await adminEvents(db(), 'client:update')).toContainEqual(
      expect.objectContaining({
        detail: expect.objectContaining({
          command: 'client:update',
          clientId: 'moved',
          changed: 'productName,redirectUris,postLogoutRedirectUris',
        }),
      }),
    );
  });

  it('rotates a secret read from standard input: the old one and its tokens stop working at once', async () => {
    const added = await admin(
      ['client:add', '--id', 'rota-console', '--name', 'Rota console', '--admin', '--secret-stdin'],
      `${OLD_SECRET}\n`,
    );
    expect(added.code).toBe(0);
    const old = await adminToken(app(), { clientId: 'rota-console', secret: OLD_SECRET });

    const run = await admin(['client:update', '--id', 'rota-console', '--secret-stdin'], `${NEW_SECRET}\n`);
    expect(run).toMatchObject({ code: 0, stdinRead: true });
    expect(run.stdout).toMatch(/^changed admin client rota-console /);
    expect(run.stdout + run.stderr).not.toContain(NEW_SECRET);
    expect((await clientRow('rota-console'))?.clientSecret).toBe(NEW_SECRET);
    expect(JSON.stringify(await adminEvents(db(), 'client:update'))).not.toContain(NEW_SECRET);

    expect((await adminCall(app(), old.access_token, 'GET', '/users?email=a@example.com')).statusCode).toBe(
      401,
    );
    expect((await requestToken(app(), { clientId: 'rota-console', secret: OLD_SECRET })).statusCode).toBe(
      401,
    );
    const fresh = await adminToken(app(), { clientId: 'rota-console', secret: NEW_SECRET });
    expect((await adminCall(app(), fresh.access_token, 'GET', '/users?email=a@example.com')).statusCode).toBe(
      404,
    );
  });

  it('takes settings back with its reset switches, and changes nothing it was not given', async () => {
    await addPlanner(
      'resets',
      '--post-logout-uri',
      'https://resets.example/bye',
      '--backchannel-logout-uri',
      'https://resets.example/bc',
      '--backchannel-logout-session-required',
    );
    const confidential = await admin(
      [
        'client:update',
        '--id',
        'resets',
        '--secret-stdin',
        '--auth-method',
        'client_secret_basic',
        '--require-pkce',
      ],
      `${OLD_SECRET}\n`,
    );
    expect(confidential.code).toBe(0);
    expect(await clientRow('resets')).toMatchObject({
      requirePkce: true,
      backchannelLogoutSessionRequired: true,
    });
    const run = await admin([
      'client:update',
      '--id',
      'resets',
      '--pkce-optional',
      '--no-post-logout-uri',
      '--backchannel-logout-session-optional',
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(run.json().result).toMatchObject({
      requirePkce: false,
      postLogoutRedirectUris: [],
      backchannelLogoutUri: 'https://resets.example/bc',
      backchannelLogoutSessionRequired: false,
      kind: 'confidential',
      productName: 'Planner',
      redirectUris: ['https://resets.example/cb'],
    });
    const gone = await admin(['client:update', '--id', 'resets', '--no-backchannel-logout', '--no-secret']);
    expect(gone.code).toBe(0);
    expect(await clientRow('resets')).toMatchObject({
      clientSecret: null,
      backchannelLogoutUri: null,
      tokenEndpointAuthMethod: 'none',
    });
  });

  it('refuses a reset given with the flag it contradicts, and bad values, naming the flag (exit 2)', async () => {
    await addPlanner('refusing');
    const both = await admin(['client:update', '--id', 'refusing', '--require-pkce', '--pkce-optional']);
    expect(both).toMatchObject({
      code: 2,
      stderr: 'admin: invalid --require-pkce: give it or --pkce-optional, not both\n',
    });
    const badUri = await admin([
      'client:update',
      '--id',
      'refusing',
      '--redirect-uri',
      'javascript:alert(1)',
    ]);
    expect(badUri.code).toBe(2);
    expect(badUri.stderr).toMatch(/^admin: invalid --redirect-uri: must be an absolute http\(s\) URL/);
    expect(await admin(['client:update', '--id', 'nobody-here', '--name', 'X'])).toMatchObject({
      code: 1,
      stderr: 'admin: no client with the id nobody-here\n',
    });
    expect((await clientRow('refusing'))?.redirectUris).toEqual(['https://refusing.example/cb']);
  });
});
