import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { ADMIN_API_BASE, ADMIN_SCOPE } from '@keycard/contract';
import type { Account } from './accounts.ts';
import { BASE_URL_ENV, DATA_DIR_ENV, DATABASE_URL_ENV, REPO_ROOT } from './paths.ts';

/**
 * The admin CLI (`npm run admin -- <command>`, DESIGN §5) run against the service of this e2e run:
 * its DATA_DIR, and its DATABASE_URL on the PostgreSQL pass. On the embedded database the CLI hands
 * the command to the running service; it never opens the data directory itself while the service
 * holds it.
 */

/** The CLI waits up to 30 s for a data directory whose holder does not answer; then it gives up. */
const ADMIN_TIMEOUT_MS = 45_000;

/** What `--json` prints on success. */
interface AdminSuccess {
  readonly ok: true;
  readonly command: string;
  readonly result: unknown;
}

interface AdminFailure {
  readonly ok: false;
  readonly error: { readonly code: string; readonly message: string };
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the journeys through playwright.config.ts`);
  return value;
}

/**
 * The environment of the service the run started, without the npm variables of the test runner
 * (an inherited npm_config_workspace would send `npm run` into the e2e workspace).
 */
function serviceEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith('npm_')) env[key] = value;
  }
  env.NODE_ENV = 'development';
  env.PUBLIC_URL = required(BASE_URL_ENV);
  env.DATA_DIR = required(DATA_DIR_ENV);
  const databaseUrl = process.env[DATABASE_URL_ENV];
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  return env;
}

/** npm itself: the one running the tests when there is one, else the one on PATH. */
function npmCommand(args: readonly string[]): readonly [string, string[]] {
  const npmCli = process.env.npm_execpath;
  return npmCli?.endsWith('.js') ? [process.execPath, [npmCli, ...args]] : ['npm', [...args]];
}

function describe(args: readonly string[], detail: string): string {
  return `npm run admin -- ${args.join(' ')}: ${detail}`;
}

/**
 * Runs one admin command with `--json` and answers its result; a secret goes to standard input.
 * Fails with the CLI's own message when the command is refused or does not run.
 */
export async function runAdmin(args: readonly string[], stdin?: string): Promise<unknown> {
  const [command, npmArgs] = npmCommand(['run', '--silent', 'admin', '--', ...args, '--json']);
  const child = spawn(command, npmArgs, {
    cwd: REPO_ROOT,
    env: serviceEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: ADMIN_TIMEOUT_MS,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.end(stdin === undefined ? '' : `${stdin}\n`);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });

  const lastLine = stdout.trim().split('\n').at(-1) ?? '';
  let answer: AdminSuccess | AdminFailure;
  try {
    answer = JSON.parse(lastLine) as AdminSuccess | AdminFailure;
  } catch {
    throw new Error(describe(args, `exit code ${exitCode}, no JSON answer\n${stdout}${stderr}`));
  }
  if (!answer.ok) throw new Error(describe(args, `${answer.error.code}: ${answer.error.message}`));
  if (exitCode !== 0) throw new Error(describe(args, `exit code ${exitCode}\n${stderr}`));
  return answer.result;
}

/** `user:add` with a first password (read from standard input, never an argument). */
export async function addUser(account: Account): Promise<void> {
  await runAdmin(
    ['user:add', '--email', account.email, '--name', account.name, '--password-stdin'],
    account.password,
  );
}

/** `user:expire-password`: the next correct password leads to the expired-password reset. */
export async function expirePassword(email: string): Promise<void> {
  await runAdmin(['user:expire-password', '--email', email]);
}

/** `user:unlock`: clears the identifier's failures and lock. */
export async function unlockUser(email: string): Promise<void> {
  await runAdmin(['user:unlock', '--email', email]);
}

/** Calls the admin HTTP API: method, path below ADMIN_API_BASE, JSON body; answers the JSON reply. */
export type AdminApi = (method: string, path: string, body?: unknown) => Promise<unknown>;

/** A token is fetched again this long before it expires. */
const TOKEN_MARGIN_MS = 30_000;

/**
 * The admin HTTP API of the running service (DESIGN §1 Provisioning), as the planning product calls
 * it: an admin client registered once with `client:add --admin`, a client-credentials token from the
 * provider's token endpoint (fetched again before it expires), then JSON calls with it.
 */
export async function adminApi(baseUrl: string): Promise<AdminApi> {
  const clientId = `e2e-admin-${randomBytes(4).toString('hex')}`;
  const secret = randomBytes(24).toString('hex');
  await runAdmin(
    ['client:add', '--id', clientId, '--name', 'E2E provisioning', '--admin', '--secret-stdin'],
    secret,
  );
  let token: { readonly value: string; readonly renewAt: number } | undefined;
  const currentToken = async (): Promise<string> => {
    if (token && Date.now() < token.renewAt) return token.value;
    const tokenResponse = await fetch(`${baseUrl}/oidc/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: ADMIN_SCOPE }),
    });
    if (!tokenResponse.ok) throw new Error(`token endpoint answered ${tokenResponse.status}`);
    const answer = (await tokenResponse.json()) as { access_token: string; expires_in: number };
    token = { value: answer.access_token, renewAt: Date.now() + answer.expires_in * 1000 - TOKEN_MARGIN_MS };
    return token.value;
  };
  return async (method, path, body) => {
    const response = await fetch(`${baseUrl}${ADMIN_API_BASE}${path}`, {
      method,
      headers: { authorization: `Bearer ${await currentToken()}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer: unknown = await response.json();
    if (!response.ok)
      throw new Error(`${method} ${path} answered ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
}
