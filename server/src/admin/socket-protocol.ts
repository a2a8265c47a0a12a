import { hostname, userInfo } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ServiceError } from '../errors/service-error.ts';

/**
 * The admin socket's wire format: over DATA_DIR/admin.sock the CLI writes one JSON line
 * `{ "version": 1, "caller": {…}, "command": …, "input": … }` (`caller`: see callerSchema) and the
 * service answers one JSON line, an AdminResponse (the operation's value or refusal), then closes
 * the connection.
 */
export const ADMIN_SOCKET_NAME = 'admin.sock';
export const PROTOCOL_VERSION = 1;
/** Far above any valid request (a few URIs and a secret); bounds what a stray client can make us buffer. */
export const MAX_LINE_BYTES = 64 * 1024;

/**
 * The longest path a Unix socket binds to or connects by, in bytes: the kernel's address holds 108
 * on Linux and 104 on macOS and the BSDs, a terminating NUL included; the smaller of the two.
 */
export const MAX_SOCKET_PATH_BYTES = 103;

/**
 * The path by which this process binds to or connects to DATA_DIR's admin socket: the socket's
 * absolute path, or, when that is longer than a Unix socket's path may be (a deep DATA_DIR, which
 * would fail with EINVAL), the same file by its path from the working directory (`cwd`), which the
 * service and the CLI each resolve against their own. Throws, naming DATA_DIR, when both are too long.
 */
export function adminSocketPath(dataDir: string, cwd = process.cwd()): string {
  const file = path.resolve(cwd, dataDir, ADMIN_SOCKET_NAME);
  if (Buffer.byteLength(file) <= MAX_SOCKET_PATH_BYTES) return file;
  const relative = path.relative(cwd, file);
  if (Buffer.byteLength(relative) <= MAX_SOCKET_PATH_BYTES) return relative;
  throw new Error(
    `DATA_DIR ${dataDir} is too deep for its admin socket: ${file} is longer than the ` +
      `${MAX_SOCKET_PATH_BYTES} bytes a Unix socket's path may have, also from the working directory. ` +
      'Choose a shorter DATA_DIR, or start Keycard (and the admin CLI) from a directory nearer to it.',
  );
}

/**
 * What the CLI says of its process in each request (`caller`), for the audit row of the command.
 * Self-reported, like any local process's word; the socket's mode already limits who may connect.
 */
export const callerSchema = z.strictObject({
  user: z.string().max(256),
  host: z.string().max(256),
  pid: z.number().int().nonnegative(),
});

/** This process as the audit log names the admin CLI: its operating-system user, host and pid. */
export function thisProcess(): z.output<typeof callerSchema> {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    // A uid without a passwd entry (some containers): the number is what there is.
    user = String(process.getuid?.() ?? 'unknown');
  }
  return { user, host: hostname(), pid: process.pid };
}

/** The ways an operation refuses (ServiceErrors it throws), answered as they are. */
const REFUSAL_CODES = ['invalid_input', 'not_found', 'conflict'] as const;
type RefusalCode = (typeof REFUSAL_CODES)[number];

/** Errors of the transport itself, beside the operations' own codes. */
export const TRANSPORT_ERROR_CODES = ['invalid_request', 'failed'] as const;

/** An operation's refusal as the protocol answers it, or undefined for any other error (a failure). */
export function refusalOf(
  error: unknown,
): { code: RefusalCode; message: string; field?: string } | undefined {
  if (!(error instanceof ServiceError)) return undefined;
  const code = REFUSAL_CODES.find((known) => known === error.code);
  if (code === undefined) return undefined;
  const { message, field } = error;
  return field === undefined ? { code, message } : { code, message, field };
}

export const adminResponseSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error: z.object({
      code: z.enum([...REFUSAL_CODES, ...TRANSPORT_ERROR_CODES]),
      message: z.string(),
      field: z.string().optional(),
    }),
  }),
]);
export type AdminResponse = z.output<typeof adminResponseSchema>;

/**
 * Collects bytes up to the first newline. `push` answers the line once complete, 'too_long' past
 * MAX_LINE_BYTES, or undefined while more is needed.
 */
export function lineReader(): { push(chunk: Buffer): string | 'too_long' | undefined } {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    push(chunk) {
      const newline = chunk.indexOf(0x0a);
      chunks.push(newline < 0 ? chunk : chunk.subarray(0, newline));
      size += newline < 0 ? chunk.length : newline;
      if (size > MAX_LINE_BYTES) return 'too_long';
      return newline < 0 ? undefined : Buffer.concat(chunks).toString('utf8');
    },
  };
}

/**
 * Why an operation failed unexpectedly, safe to show and log: the driver's own message, never a
 * query wrapper's text, which lists the query's parameters (a password hash or client secret).
 */
export function describeFailure(error: unknown): string {
  let current: unknown = error;
  // Bounded: a cause may lead back to an error already passed.
  for (
    let depth = 0;
    depth < 8 &&
    typeof current === 'object' &&
    current !== null &&
    'cause' in current &&
    current.cause !== undefined;
    depth++
  ) {
    current = current.cause;
  }
  return current instanceof Error ? current.message : String(current);
}
