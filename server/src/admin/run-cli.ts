import { type Config, ConfigError, loadConfig } from '../config.ts';
import { InputError } from '../errors/input-error.ts';
import { parseInput } from '../errors/parse-input.ts';
import { isDatabaseTimeout, isDatabaseUnavailable } from '../store/unavailable.ts';
import { type AdminRequest, adminRequestSchema } from './admin-commands.ts';
import { BACKCHANNEL_COMMANDS } from './backchannel-commands.ts';
import { type ParsedFlags, parseFlags } from './cli-args.ts';
import { type CliCommand, commandHelp, HELP_FLAG, JSON_FLAG } from './cli-command.ts';
import { CLIENT_COMMANDS } from './client-commands.ts';
import { DataDirBusyError, type Execution, executeAdminRequest } from './execute-request.ts';
import { IDP_COMMANDS } from './idp-commands.ts';
import { KEY_COMMANDS } from './key-commands.ts';
import { MAIL_COMMANDS } from './mail-commands.ts';
import { RESOURCE_COMMANDS } from './resource-commands.ts';
import { describeFailure } from './socket-protocol.ts';
import { SecretInputError } from './stdin-secret.ts';
import { USER_COMMANDS } from './user-commands.ts';

/** `npm run admin -- <command> …` (DESIGN §5). Exit codes: 0 done, 2 bad input, 1 anything else. */

export const CLI_COMMANDS: readonly CliCommand[] = [
  ...USER_COMMANDS,
  ...CLIENT_COMMANDS,
  ...IDP_COMMANDS,
  ...MAIL_COMMANDS,
  ...BACKCHANNEL_COMMANDS,
  ...KEY_COMMANDS,
  ...RESOURCE_COMMANDS,
];

export interface Output {
  write(text: string): unknown;
}

export interface CliIo {
  /** The arguments after `npm run admin --`. */
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: Output;
  readonly stderr: Output;
  /** Reads the secret a --…-stdin switch asks for; `label` names it in a prompt. */
  readonly readSecret: (label: string) => Promise<string>;
  /** Runs a validated request where the database is; tests may bind it to their own database. */
  readonly execute?: (config: Config, request: AdminRequest) => Promise<Execution>;
}

type FailureKind = 'usage' | 'invalid_input' | 'not_found' | 'conflict' | 'invalid_request' | 'failed';

/** A refusal the CLI reports in one line; usage and invalid_input are the caller's to fix (exit 2). */
class CliFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
  }

  get exitCode(): number {
    return this.kind === 'usage' || this.kind === 'invalid_input' ? 2 : 1;
  }
}

export async function runCli(io: CliIo): Promise<number> {
  const json = io.argv.includes(`--${JSON_FLAG.name}`);
  try {
    const outcome = await run(io);
    if (outcome === 'help') return 0;
    const { command, execution, line, result } = outcome;
    if (json) io.stdout.write(`${JSON.stringify({ ok: true, command, via: execution.via, result })}\n`);
    else io.stdout.write(`${line}\n`);
    return 0;
  } catch (error) {
    const failure = error instanceof CliFailure ? error : new CliFailure('failed', explain(error));
    if (json)
      io.stdout.write(
        `${JSON.stringify({ ok: false, error: { code: failure.kind, message: failure.message } })}\n`,
      );
    else io.stderr.write(`admin: ${failure.message}\n`);
    return failure.exitCode;
  }
}

async function run(io: CliIo) {
  const [name, ...args] = io.argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout).write(overview());
    if (name === undefined) throw new CliFailure('usage', 'no command given');
    return 'help' as const;
  }
  const command = CLI_COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    const shown = /^[\w:.-]{1,40}$/.test(name) ? ` "${name}"` : '';
    throw new CliFailure('usage', `unknown command${shown} (see npm run admin -- --help)`);
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(commandHelp(command));
    return 'help' as const;
  }
  const parsed = parseFlags(args, [...command.flags, JSON_FLAG, HELP_FLAG], command.secret?.flag);
  if (!parsed.ok)
    throw new CliFailure('usage', `${command.name}: ${parsed.message} (see ${command.name} --help)`);
  // Flags and environment are checked before a secret is asked for, so nobody types a password in vain.
  validate(command, requestOf(command, parsed.flags, undefined));
  const config = readConfig(io.env);
  const secret =
    command.secret && parsed.flags.has(command.secret.flag) ? await readSecret(io, command) : undefined;
  const request = validate(command, requestOf(command, parsed.flags, secret));
  const execution = await (io.execute ?? defaultExecute(io))(config, request);
  const { response } = execution;
  if (!response.ok) throw new CliFailure(response.error.code, messageOf(command, response.error));
  const described = command.describe(response.value);
  if (!described) throw new CliFailure('failed', `${command.name} ran, but its answer was not understood`);
  return { command: command.name, execution, ...described };
}

/** Runs where the database is, telling the person at the terminal when it has to wait for DATA_DIR. */
function defaultExecute(io: CliIo) {
  return (config: Config, request: AdminRequest) =>
    executeAdminRequest(config, request, {
      onWait: (pid) =>
        io.stderr.write(`admin: waiting for the data directory (held by process ${pid ?? '?'})…\n`),
    });
}

/** The command's request from its flags; flags that contradict each other are told by the first one's name. */
function requestOf(command: CliCommand, flags: ParsedFlags, secret: string | undefined): AdminRequest {
  try {
    return command.toRequest(flags, secret);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new CliFailure(
      'invalid_input',
      messageOf(command, { code: 'invalid_input', field: error.field, message: error.message }),
    );
  }
}

/** Validates the request as the operation will; a bad value is told by the flag it came from. */
function validate(command: CliCommand, request: AdminRequest): AdminRequest {
  try {
    parseInput(adminRequestSchema, request);
    return request;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const field = String(error.path[1] ?? '');
    throw new CliFailure(
      'invalid_input',
      messageOf(command, { code: 'invalid_input', field, message: error.message }),
    );
  }
}

function messageOf(command: CliCommand, error: { code: string; message: string; field?: string }): string {
  if (error.code === 'failed') return `${command.name} failed in the running service: ${error.message}`;
  if (error.code !== 'invalid_input') return error.message;
  const flag = error.field === undefined ? undefined : command.fieldFlags[error.field];
  return flag ? `invalid ${flag}: ${error.message}` : `invalid input: ${error.message}`;
}

async function readSecret(io: CliIo, command: CliCommand): Promise<string> {
  try {
    return await io.readSecret(command.secret?.label ?? 'Secret');
  } catch (error) {
    if (error instanceof SecretInputError)
      throw new CliFailure('invalid_input', `--${command.secret?.flag}: ${error.message}`);
    throw error;
  }
}

function readConfig(env: NodeJS.ProcessEnv): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError)
      throw new CliFailure('failed', `fix the environment: ${error.problems.join('; ')}`);
    throw error;
  }
}

function explain(error: unknown): string {
  if (error instanceof DataDirBusyError) return error.message;
  if (isDatabaseTimeout(error)) {
    return `the database did not answer in time, try again: ${describeFailure(error)}`;
  }
  if (isDatabaseUnavailable(error)) return `cannot reach the database: ${describeFailure(error)}`;
  return `failed: ${describeFailure(error)}`;
}

function overview(): string {
  const width = Math.max(...CLI_COMMANDS.map((command) => command.name.length)) + 2;
  return [
    'Usage: npm run admin -- <command> [flags] [--json]',
    '',
    'Commands:',
    ...CLI_COMMANDS.map((command) => `  ${command.name.padEnd(width)}${command.summary}`),
    '',
    'Run "npm run admin -- <command> --help" for its flags. Passwords and secrets are read from',
    'standard input only. With DATABASE_URL the CLI connects to PostgreSQL; otherwise it uses the',
    'embedded database in DATA_DIR, through the running service when one holds it.',
    '',
  ].join('\n');
}
