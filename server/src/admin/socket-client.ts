import { createConnection } from 'node:net';
import type { AdminRequest } from './admin-commands.ts';
import {
  type AdminResponse,
  adminResponseSchema,
  lineReader,
  PROTOCOL_VERSION,
  thisProcess,
} from './socket-protocol.ts';

/** Nothing listens on the socket (no file, a stale file, not a socket): the caller may try another way. */
export const UNREACHABLE = 'unreachable';

const NOBODY_LISTENING = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK']);

/**
 * Sends one request to the running service and answers its response. Once connected, a failure
 * is an error, not UNREACHABLE: the command may have run, so the caller must not run it again.
 */
export function sendAdminRequest(
  file: string,
  request: AdminRequest,
  timeoutMs = 60_000,
): Promise<AdminResponse | typeof UNREACHABLE> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(file);
    const reader = lineReader();
    let connected = false;
    const fail = (reason: string) => {
      socket.destroy();
      reject(new Error(`${reason}; the command may or may not have run`));
    };
    socket.setTimeout(timeoutMs, () =>
      fail(`the running service did not answer within ${timeoutMs / 1000} s`),
    );
    socket.once('connect', () => {
      connected = true;
      const envelope = { version: PROTOCOL_VERSION, caller: thisProcess(), ...request };
      socket.write(`${JSON.stringify(envelope)}\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      const line = reader.push(chunk);
      if (line === undefined) return;
      socket.destroy();
      if (line === 'too_long') return fail('the running service sent an oversized answer');
      const parsed = adminResponseSchema.safeParse(safeJson(line));
      if (parsed.success) resolve(parsed.data);
      else fail('the running service sent an answer this CLI does not understand');
    });
    socket.once('end', () => fail('the running service closed the connection without answering'));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (!connected && NOBODY_LISTENING.has(error.code ?? '')) resolve(UNREACHABLE);
      else fail(`lost the connection to the running service (${error.code ?? error.message})`);
    });
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
