import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { DEMO_CLIENT, DEMO_EMAIL } from './browser.ts';
import { freePort } from './started-service.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/** What runs: the service itself (compiled, as production runs it) or the floor (bench/floor/). */
export type Subject = 'keycard' | 'floor';
/** The embedded default (PGlite in a data directory) or a fresh database on DATABASE_URL's server. */
export type Store = 'PGlite' | 'PostgreSQL';

export interface BenchService {
  subject: Subject;
  base: string;
  pid: number;
  password: string;
  /** Event-loop delay since the previous call. */
  loopDelay(): Promise<{ maxMs: number; p99Ms: number }>;
  /** Resident memory now and its peak so far (VmRSS, VmHWM), MiB; NaN without /proc. */
  memory(): { rssMiB: number; peakMiB: number };
  stop(): Promise<void>;
}

async function administer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh database on the PostgreSQL server of `serverUrl`, named `<prefix>_<time>`, so a run starts from nothing. */
export async function freshDatabase(
  serverUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}`;
  await administer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => administer(serverUrl, `drop database if exists ${name} with (force)`) };
}

/** Compiles server/dist when it is older than the sources, as `npm start` does. */
export function buildServerIfStale(): void {
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs'), '--if-stale'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('building server/dist failed');
}

function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
  } catch {
    return { rssMiB: NaN, peakMiB: NaN };
  }
}

/**
 * On PostgreSQL the service runs as it is deployed: NODE_ENV=production, which logs JSON lines in
 * batches instead of development's readable line a request, and runs no demo. Its relying party and
 * account are registered with the admin CLI instead (registerDemo). BENCH_KEYCARD_MODE=development
 * runs it in development mode there too, for comparison (BENCHMARKS.md).
 */
function productionMode(subject: Subject, store: Store): boolean {
  return subject === 'keycard' && store === 'PostgreSQL' && process.env.BENCH_KEYCARD_MODE !== 'development';
}

/** What production needs to start (DESIGN §2 Modes), made up for a run on `publicUrl`. */
export async function productionEnv(publicUrl: string): Promise<NodeJS.ProcessEnv> {
  // An RSA key, as the floor signs with (floor.ts) and as the development keys make the default: ID
  // tokens signed RS256 on both sides. Until run D1 (BENCHMARKS.md) an EC key here let the service
  // sign ES256, about a fifth of the main thread's cost of the floor's RS256 signature.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'bench', alg: 'RS256', use: 'sig' };
  return {
    NODE_ENV: 'production',
    PUBLIC_URL: publicUrl,
    // Nothing is mailed during a run: an address that never answers.
    SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
    COOKIE_SECRETS: randomBytes(32).toString('base64url'),
    OIDC_JWKS: JSON.stringify({ keys: [jwk] }),
    // Production drains for 5 s before it stops; nothing here needs the wait.
    SHUTDOWN_DRAIN_MS: '0',
  };
}

function admin(env: NodeJS.ProcessEnv, args: string[], input = ''): void {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'server/dist/admin/cli.js'), ...args], {
    cwd: ROOT,
    env,
    input,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`admin ${args[0]} failed: ${run.stderr}${run.stdout}`);
}

/** What the demo gives a development start: its relying party, and an account with a known password. */
function registerDemo(env: NodeJS.ProcessEnv, base: string): string {
  const password = `Bench-${randomBytes(12).toString('base64url')}-7a`;
  admin(env, [
    'client:add',
    '--id',
    DEMO_CLIENT,
    '--name',
    'Bench',
    '--redirect-uri',
    `${base}/demo/callback`,
  ]);
  admin(env, ['user:add', '--email', DEMO_EMAIL, '--name', 'Dana Demo', '--password-stdin'], `${password}\n`);
  return password;
}

const COMMANDS: Record<Subject, { args: string[]; ready: RegExp; password: RegExp }> = {
  keycard: {
    args: [path.join(ROOT, 'server/dist/main.js')],
    ready: /Keycard listening on/,
    password: /Demo account created: \S+ \/ password (\S+)/,
  },
  floor: {
    args: ['--import', 'tsx', path.join(ROOT, 'bench/floor/floor.ts')],
    ready: /floor listening on/,
    password: /floor account: \S+ \/ password (\S+)/,
  },
};

/**
 * Starts the service (demo relying party, compiled: call buildServerIfStale first) or the floor on
 * loopback with a fresh data directory, on PGlite or on a fresh PostgreSQL database of DATABASE_URL's
 * server. Its event-loop delay is measured by bench/loop-monitor.mjs, preloaded.
 */
export async function startService(
  subject: Subject,
  store: Store,
  env: NodeJS.ProcessEnv = {},
): Promise<BenchService> {
  const serverUrl = process.env.DATABASE_URL;
  if (store === 'PostgreSQL' && !serverUrl) throw new Error('PostgreSQL needs DATABASE_URL');
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), `${subject}-bench-`));
  const database =
    store === 'PostgreSQL' && serverUrl ? await freshDatabase(serverUrl, `${subject}_bench`) : null;
  const command = COMMANDS[subject];
  const production = productionMode(subject, store);
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DEMO: 'true',
    DATABASE_URL: database?.url ?? '',
    ...(production ? await productionEnv(`http://localhost:${port}`) : {}),
    ...env,
  };
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // BENCH_CPU_PROF=<dir>: a V8 CPU profile of each process, written when it stops.
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      // As `npm start` runs the service (README): PGlite's WebAssembly kept at V8's first tier, and
      // the young generation at 8 MiB per semi-space. The floor gets the same.
      '--liftoff-only',
      '--max-semi-space-size=8',
      '--import',
      path.join(ROOT, 'bench/loop-monitor.mjs'),
      ...command.args,
    ],
    {
      cwd: ROOT,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const waiting: ((line: string) => boolean)[] = [];
  lines.on('line', (line) => {
    const index = waiting.findIndex((accept) => accept(line));
    if (index >= 0) waiting.splice(index, 1);
  });
  // A process that ends before it prints what is awaited (a configuration it refuses, say) fails the
  // wait at once, not after the timeout; its own reason is on stderr, which the bench shows.
  let exitedWith: string | null = null;
  child.once('exit', (code, signal) => {
    exitedWith = signal ?? `code ${code}`;
  });
  const nextLine = (match: RegExp, timeoutMs: number) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const ended = () => {
        clearTimeout(timer);
        reject(new Error(`${subject} exited (${exitedWith}) before it printed ${match}`));
      };
      const timer = setTimeout(() => {
        child.off('exit', ended);
        reject(new Error(`${subject} printed no ${match} within ${timeoutMs} ms`));
      }, timeoutMs);
      if (exitedWith !== null) return ended();
      child.once('exit', ended);
      waiting.push((line) => {
        const found = match.exec(line);
        if (found) {
          clearTimeout(timer);
          child.off('exit', ended);
          resolve(found);
        }
        return found !== null;
      });
    });
  // Production prints no demo account; registerDemo makes one once the service is up.
  const demoPassword = production ? null : nextLine(command.password, 90_000);
  // Awaited below once the service is ready; should it never be, the ready wait reports why.
  demoPassword?.catch(() => {});
  try {
    await nextLine(command.ready, 90_000);
  } catch (error) {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
    throw error;
  }
  const pid = child.pid ?? 0;
  const base = `http://localhost:${port}`;
  let password: string;
  try {
    password = demoPassword ? ((await demoPassword)[1] ?? '') : registerDemo(childEnv, base);
  } catch (error) {
    // Not left running when it cannot be used.
    child.kill('SIGTERM');
    throw error;
  }
  return {
    subject,
    base,
    pid,
    password,
    async loopDelay() {
      const report = nextLine(/^\{"loopDelay":(.*)\}$/, 5_000);
      child.kill('SIGUSR2');
      return JSON.parse((await report)[1] ?? '{}') as { maxMs: number; p99Ms: number };
    },
    memory: () => memoryOf(pid),
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
