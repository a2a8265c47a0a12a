/**
 * `npm run bench:static`: requests per second of Keycard's static delivery against bare Fastify with
 * `@fastify/static` serving the same web/dist (issue 18: Keycard at ≥ 0.9× of bare). Keycard runs as
 * production runs it: compiled server/dist with plain node, NODE_ENV=production on a fresh PostgreSQL
 * database, log level by default, its log written to a file. The bare server is bench/bare-static.ts.
 * Each runs in its own process; autocannon drives `/` (index.html) and the SPA's entry script, both
 * with `Accept-Encoding: br`, the two servers taking turns in several rounds so that what else the
 * machine does falls on both alike. Builds nothing: run `npm run build` first. DATABASE_URL names
 * the PostgreSQL server production needs (default postgres://postgres@127.0.0.1:5432/test); a fresh
 * database is made on it and dropped afterwards. The server CPU per request is printed alongside:
 * on a shared machine it moves less than requests per second do.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freshDatabase, productionEnv } from './service.ts';
import { freePort, ROOT } from './started-service.ts';

/** Issue 18: Keycard's requests per second at least this share of bare `@fastify/static`'s. */
export const REQUIRED_RATIO = 0.9;
const WEB_DIST = path.join(ROOT, 'web', 'dist');
const SERVER_MAIN = path.join(ROOT, 'server', 'dist', 'main.js');
const ROUNDS = 3;
const SECONDS_PER_TURN = 2;
const CONNECTIONS = 10;
const HEADERS = { 'accept-encoding': 'br' };

interface Server {
  readonly name: 'keycard' | 'bare';
  readonly base: string;
  readonly pid: number;
  /** Stops the server; Keycard answers how many request lines its log holds by then. */
  stop(): Promise<number | undefined>;
}

export interface StaticResult {
  readonly path: string;
  readonly keycardRps: number;
  readonly bareRps: number;
  /** Keycard ÷ bare over all rounds, and each round's. */
  readonly ratio: number;
  readonly roundRatios: readonly number[];
  /** Server CPU (user + system) per request, microseconds. */
  readonly keycardCpuUs: number;
  readonly bareCpuUs: number;
  readonly pass: boolean;
}

/** User + system CPU milliseconds of one process so far, from /proc (NaN elsewhere). */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** The SPA's entry script, as index.html names it: the asset every page load fetches first. */
function entryScript(): string {
  const html = readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
  const src = html.match(/<script[^>]*\ssrc="(\/assets\/[^"]+\.js)"/)?.[1];
  if (src === undefined) throw new Error('web/dist/index.html names no script under /assets');
  return src;
}

function processExit(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

async function waitUntil(ready: () => boolean, exited: Promise<number | null>, what: () => string) {
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });
  const deadline = performance.now() + 60_000;
  while (!ready()) {
    if (exitCode !== undefined) throw new Error(`exited (${exitCode}) before listening:\n${what()}`);
    if (performance.now() > deadline) throw new Error(`not listening after 60 s:\n${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A V8 CPU profile of each server, written when it stops (BENCH_CPU_PROF=<dir>). */
function profileArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

/** Keycard as production runs it, on a fresh database of DATABASE_URL's PostgreSQL server. */
async function startKeycard(): Promise<Server> {
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const database = await freshDatabase(serverUrl, 'keycard_static');
  const databaseUrl = new URL(database.url);
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keycard-static-'));
  const logFile = path.join(dataDir, 'service.log');
  const log = openSync(logFile, 'w');
  const { LOG_LEVEL: _level, REDIS_URL: _redis, ...env } = process.env;
  const child = spawn(process.execPath, [...profileArgs(), SERVER_MAIN], {
    cwd: ROOT,
    env: {
      ...env,
      ...(await productionEnv(`http://127.0.0.1:${port}`)),
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl.href,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', log, log],
  });
  const exited = processExit(child);
  const output = () => readFileSync(logFile, 'utf8');
  await waitUntil(() => output().includes('Keycard listening on'), exited, output);
  return {
    name: 'keycard',
    base: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      const logged = output()
        .split('\n')
        .filter((line) => line.includes('"request completed"')).length;
      rmSync(dataDir, { recursive: true, force: true });
      await database.drop();
      return logged;
    },
  };
}

async function startBare(): Promise<Server> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...profileArgs(), path.join(import.meta.dirname, 'bare-static.ts'), WEB_DIST, String(port)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk));
  const exited = processExit(child);
  await waitUntil(
    () => text.includes('listening'),
    exited,
    () => text,
  );
  return {
    name: 'bare',
    base: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      return undefined;
    },
  };
}

/** Both must send the Brotli copy, or the comparison is of different work. */
async function checkSameFile(servers: readonly Server[], urlPath: string): Promise<void> {
  const answers = await Promise.all(
    servers.map(async (server) => {
      const response = await fetch(`${server.base}${urlPath}`, { headers: HEADERS });
      await response.arrayBuffer();
      return { name: server.name, status: response.status, coding: response.headers.get('content-encoding') };
    }),
  );
  for (const answer of answers) {
    if (answer.status !== 200 || answer.coding !== 'br') {
      throw new Error(`${answer.name} ${urlPath}: ${answer.status} ${answer.coding}, expected 200 br`);
    }
  }
}

async function drive(server: Server, urlPath: string, seconds: number) {
  const cpuBefore = cpuMs(server.pid);
  const result = await autocannon({
    url: `${server.base}${urlPath}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: HEADERS,
  });
  const cpu = cpuMs(server.pid) - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${server.name} ${urlPath}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return { requests: result.requests.total, seconds: result.duration, cpuMs: cpu };
}

/** Starts both servers, measures both paths in alternating turns, stops both. */
export async function measureStatic(): Promise<StaticResult[]> {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error('web/dist is missing: run `npm run build` first (this benchmark builds nothing)');
  }
  if (!existsSync(SERVER_MAIN)) {
    throw new Error('server/dist is missing: run `npm run build` first (this benchmark builds nothing)');
  }
  const paths = ['/', entryScript()];
  const servers: Server[] = [];
  // Every answer Keycard gave, so its request log can be checked against them at the end.
  let keycardAnswers = 0;
  const run = async (server: Server, urlPath: string, seconds: number) => {
    const result = await drive(server, urlPath, seconds);
    if (server.name === 'keycard') keycardAnswers += result.requests;
    return result;
  };
  let results: StaticResult[];
  let loggedLines = 0;
  try {
    servers.push(await startKeycard(), await startBare());
    for (const urlPath of paths) await checkSameFile(servers, urlPath);
    keycardAnswers += paths.length;
    // Warm-up: JIT and file caches of both, not counted.
    for (const urlPath of paths) for (const server of servers) await run(server, urlPath, 1);
    const totals = new Map<string, { requests: number; seconds: number; cpuMs: number }[]>();
    for (let round = 0; round < ROUNDS; round++) {
      // Each round the other server goes first, so neither always meets the same moment.
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const urlPath of paths) {
        for (const server of order) {
          const key = `${server.name} ${urlPath}`;
          totals.set(key, [...(totals.get(key) ?? []), await run(server, urlPath, SECONDS_PER_TURN)]);
        }
      }
    }
    results = paths.map((urlPath) => {
      const turns = (name: Server['name']) => totals.get(`${name} ${urlPath}`) ?? [];
      const rps = (runs: readonly { requests: number; seconds: number }[]) =>
        runs.reduce((sum, run) => sum + run.requests, 0) / runs.reduce((sum, run) => sum + run.seconds, 0);
      const cpuUs = (runs: readonly { requests: number; cpuMs: number }[]) =>
        (1000 * runs.reduce((sum, run) => sum + run.cpuMs, 0)) /
        runs.reduce((sum, run) => sum + run.requests, 0);
      const keycard = turns('keycard');
      const bare = turns('bare');
      const ratio = rps(keycard) / rps(bare);
      return {
        path: urlPath,
        keycardRps: rps(keycard),
        bareRps: rps(bare),
        ratio,
        roundRatios: keycard.map((run, index) => rps([run]) / rps([bare[index] ?? run])),
        keycardCpuUs: cpuUs(keycard),
        bareCpuUs: cpuUs(bare),
        pass: ratio >= REQUIRED_RATIO,
      };
    });
  } finally {
    for (const server of servers) {
      const logged = await server.stop();
      if (logged !== undefined) loggedLines = logged;
    }
  }
  // Measured as production runs: one log line per answer, none missing from the batches.
  if (loggedLines < keycardAnswers) {
    throw new Error(`Keycard's log holds ${loggedLines} request lines for ${keycardAnswers} answers`);
  }
  return results;
}

export function printStatic(results: readonly StaticResult[]): void {
  console.log(
    `Static delivery, Accept-Encoding: br, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS_PER_TURN} s each:`,
  );
  for (const result of results) {
    console.log(
      `  ${result.path}: Keycard ${result.keycardRps.toFixed(0)} req/s, bare @fastify/static ${result.bareRps.toFixed(0)} req/s, ` +
        `Keycard ÷ bare ${result.ratio.toFixed(2)} (rounds ${result.roundRatios.map((ratio) => ratio.toFixed(2)).join(', ')}); ` +
        `server CPU per request ${result.keycardCpuUs.toFixed(0)} µs vs ${result.bareCpuUs.toFixed(0)} µs ` +
        `— ${result.pass ? 'pass' : 'FAIL'} (≥ ${REQUIRED_RATIO}×)`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = await measureStatic();
  printStatic(results);
  if (!results.every((result) => result.pass)) process.exitCode = 1;
}
