import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ARTIFACTS_DIR, REPO_ROOT } from './paths.ts';

/** The line the service logs once it serves (DESIGN §5). */
const READY_MARKER = 'Keycard listening on';
/** Generous: `npm start` builds the SPA first when web/dist is stale. */
const START_TIMEOUT_MS = 240_000;
const STOP_TIMEOUT_MS = 10_000;

export interface RunningService {
  readonly baseURL: string;
  readonly dataDir: string;
  /** The PostgreSQL database it runs on; undefined on the embedded PGlite in `dataDir`. */
  readonly databaseUrl: string | undefined;
  /**
   * Resolves with the first match of `pattern` in what the service printed (recent output first,
   * then output still to come); rejects after `timeoutMs` or when the service exits.
   */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

/** How much recent output `waitForOutput` searches before it waits for more. */
const RECENT_OUTPUT_CHARS = 65_536;

/** Lines the service prints, kept recent and searchable while it runs. */
class OutputWatch {
  private recent = '';
  /** Each looks at the recent output and, once it matched, removes itself. */
  private readonly waiters = new Set<(recent: string) => boolean>();

  push(chunk: string): void {
    this.recent = (this.recent + chunk).slice(-RECENT_OUTPUT_CHARS);
    for (const waiter of [...this.waiters]) waiter(this.recent);
  }

  waitFor(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const settle = (result: RegExpExecArray | Error) => {
        clearTimeout(timer);
        child.off('exit', onExit);
        this.waiters.delete(waiter);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const waiter = (recent: string) => {
        const match = pattern.exec(recent);
        if (match) settle(match);
        return match !== null;
      };
      const onExit = () => settle(new Error(`the service exited before printing ${pattern}`));
      const timer = setTimeout(
        () => settle(new Error(`the service did not print ${pattern} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      child.once('exit', onExit);
      if (!waiter(this.recent)) this.waiters.add(waiter);
    });
  }
}

/** Asks the kernel for a port nobody listens on. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port assigned'));
      });
    });
  });
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Signals the whole process group: start.mjs runs the service as its own child. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

function waitUntilListening(child: ChildProcess, log: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`service did not log "${READY_MARKER}" in time:\n${log()}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4096);
      if (seen.includes(READY_MARKER)) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before listening:\n${log()}`));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

export interface ServiceOptions {
  /** PostgreSQL connection string; without it the service runs on the embedded PGlite. */
  readonly databaseUrl?: string | undefined;
  /** SMTP_URL: where the mail worker sends; without it mail goes to the dev mailbox. */
  readonly smtpUrl?: string | undefined;
}

/**
 * The flags `npm start` gives node (package.json's start script: `--liftoff-only` keeps PGlite's
 * WebAssembly at V8's first tier, README), so the journeys' service runs as `npm start` runs it.
 */
const START_FLAGS: readonly string[] =
  (
    JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
  ).scripts.start.match(/--\S+/g) ?? [];

/**
 * Starts the real service (`node scripts/start.mjs`) on a free port with a fresh data directory and,
 * when given, a database URL and an SMTP server. Its output goes to e2e/artifacts/service.log.
 */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const { databaseUrl, smtpUrl } = options;
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'keycard-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseURL,
    DATA_DIR: dataDir,
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  if (smtpUrl) env.SMTP_URL = smtpUrl;
  else delete env.SMTP_URL;

  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const logFile = createWriteStream(path.join(ARTIFACTS_DIR, 'service.log'));
  let tail = '';
  const output = new OutputWatch();
  const child = spawn(process.execPath, [...START_FLAGS, 'scripts/start.mjs'], {
    cwd: REPO_ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const record = (chunk: Buffer) => {
    logFile.write(chunk);
    tail = (tail + chunk.toString()).slice(-8192);
    output.push(chunk.toString());
  };
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);

  let stopping = false;
  child.once('exit', (code, signal) => {
    if (stopping) return;
    // Every later journey fails on a refused connection; say why once, where it is seen first.
    const message = `[e2e] the service stopped during the run (${signal ?? `exit code ${code}`}); see ${path.relative(REPO_ROOT, logFile.path.toString())}\n`;
    logFile.write(message);
    process.stderr.write(message);
  });

  const stop = async () => {
    stopping = true;
    signalGroup(child, 'SIGTERM');
    if (!(await waitForExit(child, STOP_TIMEOUT_MS))) {
      signalGroup(child, 'SIGKILL');
      await waitForExit(child, STOP_TIMEOUT_MS);
    }
    logFile.end();
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    await waitUntilListening(child, () => tail);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    baseURL,
    dataDir,
    databaseUrl,
    waitForOutput: (pattern, timeoutMs) => output.waitFor(child, pattern, timeoutMs),
    stop,
  };
}
