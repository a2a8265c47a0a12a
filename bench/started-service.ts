import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
const LISTENING = 'Keycard listening on';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no free port');
  return address.port;
}

export interface StartedService {
  readonly base: string;
  /** Milliseconds from the spawn of the command to the service's "listening" line. */
  readonly listeningAfterMs: number;
  readonly output: () => string;
  /** SIGTERM to the command; answers its exit code and how long the stop took (ms). */
  stop(): Promise<{ code: number | null; ms: number }>;
}

/**
 * Runs `command` (by default `npm start`, the production start) as its own process group on a free
 * port and resolves once the service prints its listening line.
 */
export async function startService(
  options: { command?: readonly string[]; dataDir?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<StartedService> {
  const [command = 'npm', ...args] = options.command ?? ['npm', 'start'];
  const port = await freePort();
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'keycard-bench-'));
  const { DATABASE_URL: _database, ...env } = process.env;
  const started = performance.now();
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: { ...env, NODE_ENV: 'development', PORT: String(port), DATA_DIR: dataDir, ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listeningAfterMs = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes(LISTENING)) resolve(performance.now() - started);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`the service exited (${code}) before listening:\n${text}`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    listeningAfterMs,
    output: () => text,
    async stop() {
      const stopping = performance.now();
      if (child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
      const code = await exited;
      const ms = performance.now() - stopping;
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
      return { code, ms };
    },
  };
}
