import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

/**
 * CPU time (user + system, ms) that the running processes of a process group have used, read from
 * /proc (Linux; NaN elsewhere). Unlike wall time it hardly depends on what else the machine runs.
 */
function groupCpuMs(pgid: number): number {
  if (!existsSync('/proc/stat')) return Number.NaN;
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces: count fields after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) total += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // The process ended between listing and reading.
    }
  }
  return total;
}

export interface StartedService {
  readonly base: string;
  /** Milliseconds from the spawn of the command to the service's "listening" line. */
  readonly listeningAfterMs: number;
  /** CPU milliseconds its processes had used by then (NaN without /proc). */
  readonly cpuMsAtListening: number;
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
  let cpuMsAtListening = Number.NaN;
  const listeningAfterMs = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (!text.includes(LISTENING) || !Number.isNaN(cpuMsAtListening)) return;
      const at = performance.now() - started;
      cpuMsAtListening = child.pid === undefined ? 0 : groupCpuMs(child.pid);
      resolve(at);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`the service exited (${code}) before listening:\n${text}`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    listeningAfterMs,
    cpuMsAtListening,
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
