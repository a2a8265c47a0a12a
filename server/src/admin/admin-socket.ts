import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { StrengthScore } from '@keycard/contract';
import { z } from 'zod';
import { InputError } from '../errors/input-error.ts';
import { loggableReason } from '../errors/loggable-error.ts';
import { parseInput } from '../errors/parse-input.ts';
import type { SigningKeySettings } from '../oidc/keys.ts';
import {
  cliUserAgent,
  type ProvisioningDeps,
  type ProvisioningMailing,
} from '../provisioning/provisioning-deps.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { adminRequestSchema, runAdminRequest } from './admin-commands.ts';
import {
  type AdminResponse,
  adminSocketPath,
  callerSchema,
  describeFailure,
  lineReader,
  PROTOCOL_VERSION,
} from './socket-protocol.ts';

/**
 * The running service's end of the admin socket (DESIGN §5). PGlite allows one process per data
 * directory, so while the service holds DATA_DIR the CLI sends its commands here and the service
 * runs the same operations in-process. The socket is mode 0600 inside DATA_DIR: whoever may
 * connect could open the database files anyway.
 */
export interface AdminSocketOptions {
  readonly dataDir: string;
  readonly db: Db;
  readonly clock?: Clock;
  /** The service's outbox, so mail the commands queue wakes its worker at once. */
  readonly mailing: ProvisioningMailing;
  /** The service's signing key settings, for keys:list and keys:rotate. */
  readonly signingKeys?: SigningKeySettings;
  /** RESOURCE_SERVERS of the service, listed by resource:list beside the registered ones. */
  readonly configuredResources?: ProvisioningDeps['configuredResources'];
  /** The service's PASSWORD_MIN_SCORE, for user:add with a password. */
  readonly passwordMinScore?: StrengthScore;
  /** Told about operations that failed unexpectedly (never with the request's secrets). */
  readonly onError?: (message: string) => void;
}

export interface AdminSocket {
  readonly path: string;
  /** Stops accepting, lets commands in flight finish and removes the socket file. */
  close(): Promise<void>;
}

/** A connection that sends nothing useful is dropped after this long. */
const IDLE_TIMEOUT_MS = 10_000;

const envelopeSchema = z.looseObject({
  version: z.literal(PROTOCOL_VERSION, { error: 'unsupported protocol version' }),
  caller: callerSchema.optional(),
});

/** Call only while holding the DATA_DIR lock, after migrations: an existing socket file is then stale. */
export async function startAdminSocket(options: AdminSocketOptions): Promise<AdminSocket> {
  const file = adminSocketPath(options.dataDir);
  const running = new Set<Promise<void>>();
  /** Connected but no complete request yet: these are dropped at close, commands in flight are not. */
  const waiting = new Set<Socket>();
  const server = createServer((socket) => {
    waiting.add(socket);
    socket.on('close', () => waiting.delete(socket));
    const work = serve(socket, options, () => waiting.delete(socket)).catch(() => {
      socket.destroy();
    });
    running.add(work);
    void work.finally(() => running.delete(work));
  });
  rmSync(file, { force: true });
  await listenPrivately(server, file);
  return {
    path: file,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of waiting) socket.destroy();
      await Promise.allSettled([...running]);
      await closed;
      rmSync(file, { force: true });
    },
  };
}

/** Binds under umask 0177 where the process allows it, so the socket is never open to others even briefly. */
async function listenPrivately(server: Server, file: string): Promise<void> {
  const previous = setUmask(0o177);
  const listening = new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => resolve());
  });
  try {
    server.listen(file);
  } finally {
    if (previous !== undefined) setUmask(previous);
  }
  await listening;
  chmodSync(file, 0o600);
}

/** Worker threads may not change the umask; there the chmod right after binding has to do. */
function setUmask(mask: number): number | undefined {
  try {
    return process.umask(mask);
  } catch {
    return undefined;
  }
}

async function serve(socket: Socket, options: AdminSocketOptions, onRequest: () => void): Promise<void> {
  socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
  const line = await readLine(socket);
  if (line === undefined) return;
  onRequest();
  // A command may take a while (argon2, a busy database); only the idle ends of the exchange time out.
  socket.setTimeout(0);
  const response = line === 'too_long' ? invalid('request too large') : await answer(line, options);
  socket.setTimeout(IDLE_TIMEOUT_MS);
  socket.end(`${JSON.stringify(response)}\n`);
}

function readLine(socket: Socket): Promise<string | 'too_long' | undefined> {
  const reader = lineReader();
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      const line = reader.push(chunk);
      if (line === undefined) return;
      socket.off('data', onData);
      socket.pause();
      resolve(line);
    };
    socket.on('data', onData);
    socket.once('end', () => resolve(undefined));
    socket.once('close', () => resolve(undefined));
  });
}

function invalid(message: string): AdminResponse {
  return { ok: false, error: { code: 'invalid_request', message } };
}

/** Every request is validated in full before anything runs; anything else is refused. */
async function answer(line: string, options: AdminSocketOptions): Promise<AdminResponse> {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return invalid('request is not JSON');
  }
  const envelope = refusalOrValue(envelopeSchema, json);
  if (envelope instanceof InputError) return invalid(envelope.message);
  const { version: _version, caller, ...body } = envelope;
  const request = refusalOrValue(adminRequestSchema, body);
  if (request instanceof InputError) return refusedCommand(request);
  try {
    const { db, clock, mailing, signingKeys, configuredResources, passwordMinScore } = options;
    const origin = { address: 'local socket', userAgent: caller === undefined ? null : cliUserAgent(caller) };
    return await runAdminRequest(
      { db, clock, mailing, signingKeys, configuredResources, passwordMinScore, origin },
      request,
    );
  } catch (error) {
    // The log gets no value a failed statement held; the operator's own reply names the reason.
    options.onError?.(`admin command ${request.command} failed: ${loggableReason(error)}`);
    return { ok: false, error: { code: 'failed', message: describeFailure(error) } };
  }
}

/** parseInput's refusal as a value: the protocol answers it itself. */
function refusalOrValue<S extends z.ZodType>(schema: S, value: unknown): z.output<S> | InputError {
  try {
    return parseInput(schema, value);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
}

/** A bad value of the command's input names its field; any other problem is the request's. */
function refusedCommand(error: InputError): AdminResponse {
  const [where, field] = error.path;
  if (where === 'input' && typeof field === 'string') {
    return { ok: false, error: { code: 'invalid_input', message: error.message, field } };
  }
  return invalid(`${error.path.map(String).join('.') || 'request'}: ${error.message}`);
}
