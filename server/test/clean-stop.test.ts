import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME } from '../src/lock-file.ts';
import { freePort, seedEmbeddedDatabase } from './support/service-process.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LISTENING = /Keycard listening on (\S+)/;
/** The bound on a stop; main.ts gives up with exit code 1 after the same time. */
const STOP_WITHIN_MS = 10_000;
/** A fresh checkout builds the SPA and the server before it serves. */
const START_WITHIN_MS = 240_000;
const run = promisify(execFile);
/** server/dist as `npm start` leaves it: rebuilt only when its sources changed. */
const BUILD_SERVER_IF_STALE = `
const { buildServer } = await import('./scripts/build-server.mjs');
await buildServer({ onlyIfStale: true });`;

/**
 * With type stripping off and no loader, a TypeScript module anywhere in the start would fail to
 * load: serving at all proves the start runs compiled JavaScript only.
 */
const NO_TYPESCRIPT = '--no-experimental-strip-types';

interface Started {
  readonly child: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code, or rejects (after killing the group) when it takes too long. */
  exitWithin(timeoutMs: number): Promise<number | null>;
}

/** Groups started by the tests; whatever a failed test leaves running is killed after it. */
const groups = new Set<number>();

/** Runs a command as the leader of its own process group, as a terminal or a supervisor would. */
function startGroup(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Started {
  // Nor the run's Redis, as for every service a test starts (support/service-process.ts).
  const { DATABASE_URL: _inherited, REDIS_URL: _shared, NODE_OPTIONS: _options, ...parentEnv } = process.env;
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { ...parentEnv, NODE_ENV: 'development', NODE_OPTIONS: NO_TYPESCRIPT, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid !== undefined) groups.add(child.pid);
  let text = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    text += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const killGroup = () => {
    if (child.pid !== undefined && groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
  };
  return {
    child,
    output: () => text,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = text.match(pattern);
          if (!match) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(match);
        };
        const timer = setTimeout(() => {
          killGroup();
          reject(new Error(`timed out waiting for ${pattern}:\n${text}`));
        }, timeoutMs);
        listeners.add(check);
        exit.then(() => reject(new Error(`exited before ${pattern}:\n${text}`)), reject);
        check();
      });
    },
    exitWithin(timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          killGroup();
          reject(new Error(`still running ${timeoutMs} ms after the signal:\n${text}`));
        }, timeoutMs);
        void exit.then((code) => {
          clearTimeout(timer);
          resolve(code);
        });
      });
    },
  };
}

/** Whether any process of the group is left; signal 0 only asks. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Command lines of the group's processes (Linux/macOS ps). */
async function groupCommands(pgid: number): Promise<string[]> {
  const { stdout } = await run('ps', ['-eo', 'pgid=,args=']);
  return stdout
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(.*)$/))
    .filter((match): match is RegExpMatchArray => match !== null && Number(match[1]) === pgid)
    .map((match) => match[2] ?? '');
}

describe('clean stop of the real service', () => {
  let dataDir: string;
  const lockFile = () => path.join(dataDir, LOCK_FILE_NAME);
  let port = 0;
  const env = async () => {
    port = await freePort();
    return { DATA_DIR: dataDir, PORT: String(port) };
  };
  const csrfToken = () => fetch(`http://127.0.0.1:${port}/api/getcsrftoken`);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'keycard-stop-'));
    await seedEmbeddedDatabase(dataDir);
  });
  afterEach(() => {
    for (const pgid of groups) if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
    groups.clear();
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it(
    'npm start serves compiled code, and a SIGTERM to npm stops it within 10 s: exit 0, no process left',
    async () => {
      const service = startGroup('npm', ['start'], await env());
      await service.waitFor(LISTENING, START_WITHIN_MS);
      expect((await csrfToken()).status).toBe(200);
      const pgid = service.child.pid ?? 0;
      const commands = await groupCommands(pgid);
      // --liftoff-only: V8 takes it only on the command line; it keeps PGlite's memory down (README).
      expect(
        commands.some((command) =>
          /node\S* --liftoff-only --max-semi-space-size=8 scripts\/start\.mjs$/.test(command),
        ),
      ).toBe(true);
      expect(commands.join('\n')).not.toMatch(/tsx|--import|--loader|--require/);
      expect(service.output()).not.toMatch(/Unsupported runtime|Warning:/);

      process.kill(pgid, 'SIGTERM');
      expect(await service.exitWithin(STOP_WITHIN_MS)).toBe(0);
      expect(groupAlive(pgid)).toBe(false);
      expect(existsSync(lockFile())).toBe(false);
      await expect(csrfToken()).rejects.toThrow();
    },
    START_WITHIN_MS + 30_000,
  );

  it('the compiled service run with plain node stops on SIGINT the same way', async () => {
    await run(process.execPath, ['--input-type=module', '-e', BUILD_SERVER_IF_STALE], { cwd: REPO_ROOT });
    const service = startGroup(process.execPath, ['server/dist/main.js'], await env());
    await service.waitFor(LISTENING, 60_000);
    const pgid = service.child.pid ?? 0;
    process.kill(pgid, 'SIGINT');
    expect(await service.exitWithin(STOP_WITHIN_MS)).toBe(0);
    expect(groupAlive(pgid)).toBe(false);
    expect(existsSync(lockFile())).toBe(false);
  }, 120_000);

  it('a SIGTERM while the service is still starting ends the start-up cleanly instead', async () => {
    const service = startGroup('npm', ['start'], await env());
    await service.waitFor(/Starting Keycard/, START_WITHIN_MS);
    const pgid = service.child.pid ?? 0;
    process.kill(pgid, 'SIGTERM');
    expect(await service.exitWithin(STOP_WITHIN_MS)).toBe(0);
    expect(service.output()).not.toMatch(LISTENING);
    expect(groupAlive(pgid)).toBe(false);
    expect(existsSync(lockFile())).toBe(false);
  }, 120_000);
});
