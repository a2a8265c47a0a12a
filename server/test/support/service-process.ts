import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, inject } from 'vitest';
import { pgliteDirectory } from '../../src/store/open-database.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The service started as `npm start` starts it, with its output collected. */
export interface ServiceProcess {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the first output line matching `pattern`; rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited(): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no free port');
  return address.port;
}

/**
 * Puts a copy of the run's migrated embedded database (global-setup.ts) into `dataDir`, for a test
 * whose subject is not the very first start: the service or CLI started on it skips PGlite's initdb
 * and the migrations, about 2.3 s a start on an idle machine. The first start from an empty
 * directory keeps its own tests (main.test.ts) and the journeys' service.
 */
export async function seedEmbeddedDatabase(dataDir: string): Promise<void> {
  await cp(inject('pgliteDataDir'), pgliteDirectory(dataDir), { recursive: true });
}

/** server/dist as `npm start` leaves it: rebuilt only when its sources changed. */
export async function buildServerIfStale(): Promise<void> {
  const build = `
const { buildServer } = await import('./scripts/build-server.mjs');
await buildServer({ onlyIfStale: true });`;
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', build], { cwd: REPO_ROOT });
}

/** Services started and not yet exited: a test that fails before stopping its own leaves one behind. */
const running = new Set<ChildProcess>();

/** Kills every service this test file started that is still running. */
async function stopLeftoverServices(): Promise<void> {
  const left = [...running].map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of running) child.kill('SIGKILL');
  await Promise.all(left);
}

/**
 * Registers what a test file that calls startService needs: server/dist up to date before its first
 * test, and, after its last, every service it started and left running killed, so a failed test
 * cannot leave one behind for the rest of the run.
 */
export function useServiceProcesses(): void {
  beforeAll(buildServerIfStale);
  afterAll(stopLeftoverServices);
}

/**
 * The flags `npm start` gives node (package.json's start script: `--liftoff-only` keeps PGlite's
 * WebAssembly at V8's first tier, README), so a test's service runs as production runs it. A start
 * without them cost about 2 core-seconds more, the optimising compiler's work on PGlite.
 */
const START_FLAGS: readonly string[] =
  (
    JSON.parse(readFileSync(`${REPO_ROOT}package.json`, 'utf8')) as { scripts: { start: string } }
  ).scripts.start.match(/--\S+/g) ?? [];

/**
 * Starts server/dist/main.js with plain node and `npm start`'s flags, as production runs it (the
 * file calls useServiceProcesses, or buildServerIfStale before its first start): a start from the
 * sources through tsx cost about 2.5 core-seconds more, and that many starts add up in a 2-core run.
 * `npm start`'s own path is test/clean-stop.test.ts's.
 */
export function startService(env: NodeJS.ProcessEnv): ServiceProcess {
  // Nor the run's Redis: its counters outlive the run, so a fixed address (the demo account's) would
  // reach its per-address limits after a few runs within the hour. A test that wants Redis passes it.
  const { DATABASE_URL: _inherited, REDIS_URL: _shared, ...parentEnv } = process.env;
  const child = spawn(process.execPath, [...START_FLAGS, 'server/dist/main.js'], {
    cwd: REPO_ROOT,
    env: { ...parentEnv, ...env },
  });
  let text = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    text += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  running.add(child);
  void exit.then(() => running.delete(child));
  return {
    child,
    output: () => text,
    exited: () => exit,
    waitFor(pattern, timeoutMs = 45_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = text.match(pattern);
          if (!match) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(match);
        };
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${pattern}:\n${text}`)),
          timeoutMs,
        );
        listeners.add(check);
        exit.then(() => reject(new Error(`service exited before ${pattern}:\n${text}`)), reject);
        check();
      });
    },
  };
}
