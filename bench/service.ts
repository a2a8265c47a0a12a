import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { freePort } from './started-service.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface BenchService {
  base: string;
  pid: number;
  demoPassword: string;
  /** Event-loop delay since the previous call. */
  loopDelay(): Promise<{ maxMs: number; p99Ms: number }>;
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

/** A fresh database on the server of DATABASE_URL, so every run starts from nothing; null without one. */
async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return null;
  const name = `keycard_bench_${Date.now().toString(36)}`;
  await administer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => administer(serverUrl, `drop database if exists ${name} with (force)`) };
}

/**
 * Starts the real service (demo relying party) on loopback with a fresh DATA_DIR, on the embedded
 * database, or on a fresh PostgreSQL database when DATABASE_URL names a server.
 */
export async function startService(env: NodeJS.ProcessEnv = {}): Promise<BenchService> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keycard-bench-'));
  const database = await freshDatabase();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // BENCH_CPU_PROF=<dir>: a V8 CPU profile of the service, written when it stops.
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      '--import',
      'tsx',
      '--import',
      path.join(ROOT, 'bench/loop-monitor.mjs'),
      path.join(ROOT, 'server/src/main.ts'),
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        DEMO: 'true',
        DATABASE_URL: database?.url ?? '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const waiting: ((line: string) => boolean)[] = [];
  lines.on('line', (line) => {
    const index = waiting.findIndex((accept) => accept(line));
    if (index >= 0) waiting.splice(index, 1);
  });
  const nextLine = (match: RegExp, timeoutMs: number) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`service printed no ${match} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      waiting.push((line) => {
        const found = match.exec(line);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
        return found !== null;
      });
    });
  const demo = nextLine(/Demo account created: \S+ \/ password (\S+)/, 90_000);
  await nextLine(/Keycard listening on/, 90_000);
  const [, demoPassword = ''] = await demo;
  return {
    base: `http://localhost:${port}`,
    pid: child.pid ?? 0,
    demoPassword,
    async loopDelay() {
      const report = nextLine(/^\{"loopDelay":(.*)\}$/, 5_000);
      child.kill('SIGUSR2');
      return JSON.parse((await report)[1] ?? '{}') as { maxMs: number; p99Ms: number };
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
