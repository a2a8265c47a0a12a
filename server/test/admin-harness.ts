import { Readable } from 'node:stream';
import { runAdminRequest } from '../src/admin/admin-commands.ts';
import type { Execution } from '../src/admin/execute-request.ts';
import { type CliIo, runCli } from '../src/admin/run-cli.ts';
import { readSecret } from '../src/admin/stdin-secret.ts';
import type { Config } from '../src/config.ts';
import { signingKeySettings } from '../src/oidc/keys.ts';
import { provisioningMailing } from '../src/provisioning/provisioning-mailing.ts';
import type { Db } from '../src/store/database.ts';

/** What one in-process `npm run admin -- …` printed and answered. */
export interface AdminRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Whether the CLI read standard input at all. */
  readonly stdinRead: boolean;
  /** Parsed stdout of a --json run. */
  json(): {
    ok: boolean;
    command?: string;
    via?: string;
    result?: unknown;
    error?: { code: string; message: string };
  };
}

export interface AdminRunOptions {
  /** Run the command against this database in-process, as the CLI would after opening it. */
  readonly db?: Db;
  /** Piped into standard input, as `printf … | npm run admin -- …` would. */
  readonly stdin?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly execute?: CliIo['execute'];
}

/** Runs the CLI's main function with injected argv, stdin and stdout. */
export async function runAdmin(argv: readonly string[], options: AdminRunOptions = {}): Promise<AdminRun> {
  let stdout = '';
  let stderr = '';
  let stdinRead = false;
  const { db } = options;
  const execute =
    options.execute ??
    (db
      ? async (config: Config, request: Parameters<typeof runAdminRequest>[1]): Promise<Execution> => ({
          via: 'database',
          response: await runAdminRequest(
            {
              db,
              mailing: provisioningMailing(config),
              signingKeys: signingKeySettings(config),
              configuredResources: config.resourceServers,
            },
            request,
          ),
        })
      : undefined);
  const code = await runCli({
    argv,
    env: { NODE_ENV: 'test', ...options.env },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    readSecret: (label) => {
      stdinRead = true;
      return readSecret(Readable.from([options.stdin ?? '']), label, () => undefined);
    },
    execute,
  });
  return {
    code,
    stdout,
    stderr,
    stdinRead,
    json: () => JSON.parse(stdout),
  };
}
