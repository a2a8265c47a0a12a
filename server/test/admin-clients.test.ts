import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clientMetadata } from '../src/oidc/clients.ts';
import { auditEvents, oidcClients } from '../src/store/tables/index.ts';
import { runAdmin } from './admin-harness.ts';
import { buildTestApp } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';
import {
  CLIENT_ID,
  POST_LOGOUT_URI,
  REDIRECT_URI,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';

const testDb = useTestDatabase();
const db = () => testDb().db;
const SECRET = 'k3Y-secret-0123456789abcdefghijklmnop';

function admin(argv: string[], stdin?: string) {
  return runAdmin(['client:add', ...argv], { db: db(), stdin });
}

async function clientRow(clientId: string) {
  const [row] = await db().select().from(oidcClients).where(eq(oidcClients.clientId, clientId));
  return row;
}

describe('client:add', () => {
  it('registers a public client that the provider then sends to the sign-in page', async () => {
    const run = await admin([
      '--id',
      CLIENT_ID,
      '--name',
      'Planner',
      '--redirect-uri',
      REDIRECT_URI,
      '--post-logout-uri',
      POST_LOGOUT_URI,
    ]);
    expect(run).toMatchObject({
      code: 0,
      stdout:
        `registered public client ${CLIENT_ID} ("Planner", PKCE) with 1 redirect URI and 1 post-logout URI;` +
        ' grant types authorization_code; scopes openid email profile; token endpoint authentication none\n',
      stdinRead: false,
    });
    const row = await clientRow(CLIENT_ID);
    expect(row).toMatchObject({
      productName: 'Planner',
      clientSecret: null,
      redirectUris: [REDIRECT_URI],
      postLogoutRedirectUris: [POST_LOGOUT_URI],
      grantTypes: ['authorization_code'],
      scope: 'openid email profile',
      tokenEndpointAuthMethod: 'none',
      requirePkce: true,
    });
    expect(row && clientMetadata(row).token_endpoint_auth_method).toBe('none');

    const app = await buildTestApp(db());
    try {
      const { returnUrl } = await startAuthorization(new TestBrowser(app));
      expect(returnUrl).toContain('product=Planner');
    } finally {
      await app.close();
    }
  });

  it('stores a confidential client secret read from standard input, never in output or audit', async () => {
    const run = await admin(
      [
        '--id',
        'reports.svc',
        '--name',
        'Reports',
        '--redirect-uri',
        'https://reports.example/cb',
        '--secret-stdin',
        '--json',
      ],
      `${SECRET}\n`,
    );
    expect(run.code).toBe(0);
    expect(run.json().result).toEqual({
      admin: false,
      accessTokenFormat: 'jwt',
      clientId: 'reports.svc',
      productName: 'Reports',
      kind: 'confidential',
      redirectUris: ['https://reports.example/cb'],
      postLogoutRedirectUris: [],
      grantTypes: ['authorization_code'],
      scopes: ['openid', 'email', 'profile'],
      tokenEndpointAuthMethod: 'client_secret_basic',
      jwks: null,
      jwksUri: null,
      requirePkce: false,
      idTokenSignedResponseAlg: null,
      backchannelLogoutUri: null,
      backchannelLogoutSessionRequired: false,
    });
    expect(run.stdout).not.toContain(SECRET);
    const row = await clientRow('reports.svc');
    expect(row?.clientSecret).toBe(SECRET);
    expect(row && clientMetadata(row).token_endpoint_auth_method).toBe('client_secret_basic');
    const audit = await db().select().from(auditEvents).where(eq(auditEvents.event, 'admin'));
    expect(audit).toContainEqual(
      expect.objectContaining({
        detail: {
          command: 'client:add',
          clientId: 'reports.svc',
          kind: 'confidential',
          admin: false,
          authentication: 'client_secret_basic',
          grantTypes: 'authorization_code',
          scope: 'openid email profile',
        },
      }),
    );
    expect(JSON.stringify(audit)).not.toContain(SECRET);
  });

  it('takes several redirect URIs, dropping repeats', async () => {
    const run = await admin([
      '--id',
      'multi',
      '--name',
      'Multi',
      '--redirect-uri',
      'https://a.example/cb',
      '--redirect-uri=http://localhost:5173/cb',
      '--redirect-uri',
      'https://a.example/cb',
    ]);
    expect(run.code).toBe(0);
    expect((await clientRow('multi'))?.redirectUris).toEqual([
      'https://a.example/cb',
      'http://localhost:5173/cb',
    ]);
  });

  it('refuses a second client with the same id (exit 1) and keeps the first', async () => {
    await admin(['--id', 'twice', '--name', 'First', '--redirect-uri', 'https://first.example/cb']);
    const run = await admin([
      '--id',
      'twice',
      '--name',
      'Second',
      '--redirect-uri',
      'https://second.example/cb',
    ]);
    expect(run).toMatchObject({ code: 1, stderr: 'admin: a client with the id twice already exists\n' });
    expect((await clientRow('twice'))?.productName).toBe('First');
  });

  it.each([
    'https://app.example/cb#fragment',
    '/relative/callback',
    'javascript:alert(1)',
    'ftp://files.example/cb',
    'https://user:pw@app.example/cb',
    'https://app.example/a b',
  ])('refuses the redirect URI %j (exit 2)', async (uri) => {
    const run = await admin(['--id', 'badredirect', '--name', 'Bad', '--redirect-uri', uri]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^admin: invalid --redirect-uri: must be an absolute http\(s\) URL without a #fragment/,
    );
    expect(await clientRow('badredirect')).toBeUndefined();
  });

  it('checks post-logout URIs by the same rule', async () => {
    const run = await admin([
      '--id',
      'badlogout',
      '--name',
      'Bad',
      '--redirect-uri',
      'https://ok.example/cb',
      '--post-logout-uri',
      'https://ok.example/out#x',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^admin: invalid --post-logout-uri: /);
  });

  it.each([
    ['ab', 'admin: invalid --id: must be 3 to 64 characters from A–Z, a–z, 0–9, ".", "_" and "-"\n'],
    ['has space', 'admin: invalid --id: must be 3 to 64 characters from A–Z, a–z, 0–9, ".", "_" and "-"\n'],
    [
      'x'.repeat(65),
      'admin: invalid --id: must be 3 to 64 characters from A–Z, a–z, 0–9, ".", "_" and "-"\n',
    ],
  ])('refuses the client id %j (exit 2)', async (id, stderr) => {
    const run = await admin(['--id', id, '--name', 'Name', '--redirect-uri', 'https://ok.example/cb']);
    expect(run).toMatchObject({ code: 2, stderr });
  });

  it('refuses a short secret without repeating it', async () => {
    const run = await admin(
      ['--id', 'weaksecret', '--name', 'Weak', '--redirect-uri', 'https://ok.example/cb', '--secret-stdin'],
      'tooShort-secret\n',
    );
    expect(run).toMatchObject({
      code: 2,
      stderr: 'admin: invalid --secret-stdin: must be at least 32 characters\n',
    });
    expect(await clientRow('weaksecret')).toBeUndefined();
  });

  it('needs an id and a name (exit 2)', async () => {
    const run = await admin(['--redirect-uri', 'https://ok.example/cb']);
    expect(run).toMatchObject({
      code: 2,
      stderr: 'admin: client:add: missing --id, --name (see client:add --help)\n',
    });
  });

  it('needs at least one redirect URI unless --admin (exit 2)', async () => {
    const run = await admin(['--id', 'nowhere', '--name', 'Nowhere']);
    expect(run).toMatchObject({
      code: 2,
      stderr: 'admin: invalid --redirect-uri: at least one redirect URI is required\n',
    });
    expect(await clientRow('nowhere')).toBeUndefined();
  });
});

describe('client:add --admin', () => {
  it('stores a confidential machine client allowed client credentials with the admin scope only', async () => {
    const run = await admin(
      ['--id', 'planner-admin', '--name', 'Planner admin', '--admin', '--secret-stdin'],
      `${SECRET}\n`,
    );
    expect(run).toMatchObject({
      code: 0,
      stdout:
        'registered admin client planner-admin ("Planner admin"): client credentials, scope keycard:admin\n',
    });
    const row = await clientRow('planner-admin');
    expect(row).toMatchObject({
      clientSecret: SECRET,
      redirectUris: [],
      grantTypes: ['client_credentials'],
      scope: 'keycard:admin',
    });
    expect(row && clientMetadata(row)).toMatchObject({
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
    });
  });

  it('refuses an admin client without a secret or with a redirect URI (exit 2)', async () => {
    expect(await admin(['--id', 'open-admin', '--name', 'Open', '--admin'])).toMatchObject({
      code: 2,
      stderr: 'admin: invalid --secret-stdin: an admin client must be confidential: give a secret\n',
    });
    const withUri = await admin(
      [
        '--id',
        'uri-admin',
        '--name',
        'Uri',
        '--admin',
        '--redirect-uri',
        'https://ok.example/cb',
        '--secret-stdin',
      ],
      `${SECRET}\n`,
    );
    expect(withUri).toMatchObject({
      code: 2,
      stderr: 'admin: invalid --redirect-uri: an admin client signs nobody in: give no redirect URI\n',
    });
    expect(await clientRow('open-admin')).toBeUndefined();
    expect(await clientRow('uri-admin')).toBeUndefined();
  });
});
