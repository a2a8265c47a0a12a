import { describe, expect, it } from 'vitest';
import type { AdminRequest } from '../src/admin/admin-commands.ts';
import { CLI_COMMANDS } from '../src/admin/run-cli.ts';
import { runAdmin } from './admin-harness.ts';

const NAMES = [
  'user:add',
  'user:expire-password',
  'user:unlock',
  'user:disable',
  'user:enable',
  'user:invite',
  'user:change-email',
  'user:set-language',
  'client:add',
  'client:list',
  'client:show',
  'client:update',
  'client:remove',
  'idp:add',
  'mail:failed',
  'backchannel:failed',
  'keys:list',
  'keys:rotate',
  'keys:revoke',
  'resource:add',
  'resource:list',
  'resource:update',
  'resource:remove',
];

/** Records what would have run: nothing must, when the command line is refused. */
function recorder() {
  const requests: AdminRequest[] = [];
  return {
    requests,
    execute: async (_config: unknown, request: AdminRequest) => {
      requests.push(request);
      return {
        via: 'database' as const,
        response: { ok: false as const, error: { code: 'not_found' as const, message: 'x' } },
      };
    },
  };
}

describe('admin CLI: commands, help and usage errors', () => {
  it('has exactly the commands of DESIGN §5 for this issue', () => {
    expect(CLI_COMMANDS.map((command) => command.name)).toEqual(NAMES);
  });

  it('lists every command with --help (exit 0) and on stderr without a command (exit 2)', async () => {
    const help = await runAdmin(['--help']);
    expect(help.code).toBe(0);
    for (const name of NAMES) expect(help.stdout).toContain(`  ${name} `);
    const none = await runAdmin([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: npm run admin -- <command>');
    expect(none.stderr).toMatch(/admin: no command given\n$/);
  });

  it.each([
    [
      'user:add',
      'Usage: npm run admin -- user:add --email E --name "First Last" [--password-stdin] [--language en|de] [--json]',
    ],
    ['user:invite', 'Usage: npm run admin -- user:invite --email E [--json]'],
    ['user:change-email', 'Usage: npm run admin -- user:change-email --email E --new-email N [--json]'],
    [
      'user:set-language',
      'Usage: npm run admin -- user:set-language --email E --language en|de|request [--json]',
    ],
    ['user:expire-password', 'Usage: npm run admin -- user:expire-password --email E [--json]'],
    ['user:unlock', 'Usage: npm run admin -- user:unlock --email E [--json]'],
    ['user:disable', 'Usage: npm run admin -- user:disable --email E [--json]'],
    ['user:enable', 'Usage: npm run admin -- user:enable --email E [--json]'],
    [
      'client:add',
      'Usage: npm run admin -- client:add --id ID --name "Product name" [--redirect-uri URI …] ' +
        '[--post-logout-uri URI …] [--secret-stdin] [--grant-type GRANT …] [--scope SCOPE …] ' +
        '[--auth-method METHOD] [--jwks JSON] [--jwks-uri URI] [--require-pkce] [--id-token-alg ALG] ' +
        '[--backchannel-logout-uri URI] [--backchannel-logout-session-required] ' +
        '[--access-token-format FORMAT] [--admin] [--json]',
    ],
    ['client:list', 'Usage: npm run admin -- client:list [--json]'],
    ['client:show', 'Usage: npm run admin -- client:show --id ID [--json]'],
    ['client:remove', 'Usage: npm run admin -- client:remove --id ID [--json]'],
    [
      'client:update',
      'Usage: npm run admin -- client:update --id ID [--name "Product name"] [--redirect-uri URI …] ' +
        '[--post-logout-uri URI …] [--secret-stdin] [--grant-type GRANT …] [--scope SCOPE …] ' +
        '[--auth-method METHOD] [--jwks JSON] [--jwks-uri URI] [--require-pkce] [--id-token-alg ALG] ' +
        '[--backchannel-logout-uri URI] [--backchannel-logout-session-required] ' +
        '[--access-token-format FORMAT] [--no-secret] [--no-post-logout-uri] [--no-jwks] [--no-jwks-uri] ' +
        '[--pkce-optional] [--default-id-token-alg] [--no-backchannel-logout] ' +
        '[--backchannel-logout-session-optional] [--json]',
    ],
    [
      'idp:add',
      'Usage: npm run admin -- idp:add --name N --issuer URL --client-id ID --client-secret-stdin ' +
        '--domain D [--domain D …] [--json]',
    ],
    ['mail:failed', 'Usage: npm run admin -- mail:failed [--retry] [--json]'],
    ['backchannel:failed', 'Usage: npm run admin -- backchannel:failed [--retry] [--id ID] [--json]'],
    [
      'resource:add',
      'Usage: npm run admin -- resource:add --identifier URI --scope SCOPE [--scope SCOPE …] ' +
        '[--ttl SECONDS] [--alg ALG] [--client ID …] [--introspection-client ID] [--json]',
    ],
    ['resource:list', 'Usage: npm run admin -- resource:list [--json]'],
    [
      'resource:update',
      'Usage: npm run admin -- resource:update --identifier URI [--scope SCOPE …] [--ttl SECONDS] ' +
        '[--alg ALG] [--client ID …] [--introspection-client ID] [--any-client] [--default-alg] ' +
        '[--no-introspection-client] [--json]',
    ],
    ['resource:remove', 'Usage: npm run admin -- resource:remove --identifier URI [--json]'],
    ['keys:list', 'Usage: npm run admin -- keys:list [--json]'],
    ['keys:rotate', 'Usage: npm run admin -- keys:rotate [--now] [--json]'],
    ['keys:revoke', 'Usage: npm run admin -- keys:revoke --kid KID [--kid KID …] [--json]'],
  ])('%s --help prints its usage and flags', async (name, usage) => {
    const { execute, requests } = recorder();
    const run = await runAdmin([name, '--email', 'x', '--help'], { execute });
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(usage);
    expect(run.stdout).toContain('--json');
    expect(requests).toEqual([]);
  });

  it('refuses an unknown command and an unknown flag (exit 2)', async () => {
    expect(await runAdmin(['user:remove', '--email', 'a@b.example'])).toMatchObject({
      code: 2,
      stderr: 'admin: unknown command "user:remove" (see npm run admin -- --help)\n',
    });
    expect(await runAdmin(['user:unlock', '--email', 'a@b.example', '--force'])).toMatchObject({
      code: 2,
      stderr: 'admin: user:unlock: unknown flag --force (see user:unlock --help)\n',
    });
  });

  it('answers --json errors on stdout with their code', async () => {
    const run = await runAdmin(['user:unlock', '--json']);
    expect(run.code).toBe(2);
    expect(run.json()).toEqual({
      ok: false,
      error: { code: 'usage', message: 'user:unlock: missing --email (see user:unlock --help)' },
    });
    expect(run.stderr).toBe('');
  });

  it('never takes a secret from the arguments, and never repeats it', async () => {
    const { execute, requests } = recorder();
    const secret = 'Hunter2-Secret-Value!';
    for (const argv of [
      ['user:add', '--email', 'a@b.example', '--name', 'A B', '--password', secret],
      ['user:add', '--email', 'a@b.example', '--name', 'A B', `--password=${secret}`],
      ['user:add', '--email', 'a@b.example', '--name', 'A B', secret],
      [
        'client:add',
        '--id',
        'abc',
        '--name',
        'N',
        '--redirect-uri',
        'https://x.example/',
        `--secret=${secret}`,
      ],
    ]) {
      const run = await runAdmin(argv, { execute, stdin: secret });
      expect(run.code).toBe(2);
      expect(run.stderr + run.stdout).not.toContain(secret);
      expect(run.stdinRead).toBe(false);
    }
    expect(requests).toEqual([]);
    const hint = await runAdmin([
      'user:add',
      '--email',
      'a@b.example',
      '--name',
      'A B',
      '--password',
      secret,
    ]);
    expect(hint.stderr).toBe(
      'admin: user:add: secrets are never taken from arguments (--password); pipe it into --password-stdin (see user:add --help)\n',
    );
  });

  it('refuses a password spread over several lines of standard input', async () => {
    const { execute, requests } = recorder();
    const run = await runAdmin(['user:add', '--email', 'a@b.example', '--name', 'A B', '--password-stdin'], {
      execute,
      stdin: 'Correct-Horse-42\nsecond line\n',
    });
    expect(run).toMatchObject({
      code: 2,
      stderr: 'admin: --password-stdin: standard input must hold the secret on one line\n',
    });
    expect(requests).toEqual([]);
  });

  it('hands the operation the validated request, with the secret from standard input', async () => {
    const { execute, requests } = recorder();
    await runAdmin(['user:add', '--email', ' a@b.example ', '--name', 'A B', '--password-stdin'], {
      execute,
      stdin: 'Correct-Horse-42\n',
    });
    expect(requests).toEqual([
      { command: 'user:add', input: { email: ' a@b.example ', name: 'A B', password: 'Correct-Horse-42' } },
    ]);
  });

  it('hands client:update only the fields given, each reset switch as the value it stands for', async () => {
    const { execute, requests } = recorder();
    await runAdmin(
      [
        'client:update',
        '--id',
        'planner',
        '--no-secret',
        '--no-post-logout-uri',
        '--no-jwks',
        '--no-jwks-uri',
        '--pkce-optional',
        '--default-id-token-alg',
        '--no-backchannel-logout',
        '--backchannel-logout-session-optional',
      ],
      { execute },
    );
    await runAdmin(['client:update', '--id', 'planner', '--name', 'Planner', '--scope', 'openid'], {
      execute,
    });
    expect(requests).toEqual([
      {
        command: 'client:update',
        input: {
          id: 'planner',
          secret: null,
          postLogoutUris: [],
          jwks: null,
          jwksUri: null,
          requirePkce: false,
          idTokenSignedResponseAlg: null,
          backchannelLogoutUri: null,
          backchannelLogoutSessionRequired: false,
        },
      },
      { command: 'client:update', input: { id: 'planner', name: 'Planner', scopes: ['openid'] } },
    ]);
  });

  it('stops on a bad environment with one line naming the variable, before asking for a secret (exit 1)', async () => {
    const { execute, requests } = recorder();
    const run = await runAdmin(['user:add', '--email', 'a@b.example', '--name', 'A B', '--password-stdin'], {
      execute,
      env: { DATABASE_URL: 'mysql://x' },
      stdin: 'Correct-Horse-42',
    });
    expect(run).toMatchObject({
      code: 1,
      stderr: 'admin: fix the environment: DATABASE_URL: must be a postgres:// connection URL\n',
      stdinRead: false,
    });
    expect(requests).toEqual([]);
  });
});
