import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const OPERATIONS = fileURLToPath(new URL('../../../OPERATIONS.md', import.meta.url));
const HAPROXY = '/usr/sbin/haproxy';

/**
 * The HAProxy configuration of OPERATIONS.md ("Running a fleet"): the block after
 * `<!-- recipe: haproxy -->`, so the fleet test runs the very file an operator copies.
 */
export async function haproxyRecipe(): Promise<string> {
  const text = await readFile(OPERATIONS, 'utf8');
  const match = /<!-- recipe: haproxy -->\s*```haproxy\n([\s\S]*?)```/.exec(text);
  if (!match?.[1]) throw new Error('OPERATIONS.md has no "haproxy" recipe');
  return match[1];
}

/** One backend server's line of HAProxy's `show stat`. */
export interface ServerStats {
  readonly name: string;
  /** UP, DOWN, MAINT, or a transition such as "UP 1/2". */
  readonly status: string;
  /** Requests in progress on the server now. */
  readonly current: number;
  /** Requests sent to the server since HAProxy started. */
  readonly total: number;
  /** Answers HAProxy had to make up, or aborted, for this server: 5xx, response errors, connection errors. */
  readonly serverErrors: number;
  readonly connectionErrors: number;
  readonly responseErrors: number;
  /** Connection attempts retried, and requests sent to another server instead. */
  readonly retries: number;
  readonly redispatches: number;
}

export interface LoadBalancer {
  /** The fleet's public address, e.g. http://127.0.0.1:40123. */
  readonly url: string;
  /** `show stat` of the backend's servers, by name (keycard1 …). */
  stats(): Promise<ReadonlyMap<string, ServerStats>>;
  /** Polls `show stat` until `accept` holds (every 25 ms); fails after `timeoutMs`. */
  waitFor(
    accept: (stats: ReadonlyMap<string, ServerStats>) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<void>;
  stop(): Promise<void>;
}

export interface LoadBalancerOptions {
  /** Where the configuration and the stats socket go. */
  readonly dir: string;
  readonly port: number;
  /** The instances' ports, in server order (keycard1 …). */
  readonly servers: readonly number[];
  /** PUBLIC_URL's host name, which the health checks send as Host. */
  readonly publicHost: string;
  /** Health-check interval, e.g. "200ms"; faster than the recipe's so the test waits less. */
  readonly checkInterval: string;
}

function number(row: Record<string, string>, field: string): number {
  return Number(row[field] || 0);
}

/** HAProxy's Runtime API answers one command per connection on its stats socket. */
function runtimeCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const connection = createConnection(socket, () => connection.end(`${command}\n`));
    connection.on('data', (chunk) => {
      answer += chunk.toString();
    });
    connection.on('end', () => resolve(answer));
    connection.on('error', reject);
  });
}

function parseStats(csv: string, backend: string): ReadonlyMap<string, ServerStats> {
  const [header = '', ...lines] = csv.trim().split('\n');
  const fields = header.replace(/^# /, '').split(',');
  const servers = new Map<string, ServerStats>();
  for (const line of lines) {
    const values = line.split(',');
    const row = Object.fromEntries(fields.map((field, index) => [field, values[index] ?? '']));
    if (row.pxname !== backend || !row.svname || ['FRONTEND', 'BACKEND'].includes(row.svname)) continue;
    servers.set(row.svname, {
      name: row.svname,
      status: row.status ?? '',
      current: number(row, 'scur'),
      total: number(row, 'stot'),
      serverErrors: number(row, 'hrsp_5xx'),
      connectionErrors: number(row, 'econ'),
      responseErrors: number(row, 'eresp'),
      retries: number(row, 'wretr'),
      redispatches: number(row, 'wredis'),
    });
  }
  return servers;
}

/** Debian's HAProxy (/usr/sbin/haproxy) in the foreground, with OPERATIONS.md's configuration. */
export async function startLoadBalancer(options: LoadBalancerOptions): Promise<LoadBalancer> {
  const config = path.join(options.dir, 'haproxy.cfg');
  const socket = path.join(options.dir, 'haproxy.sock');
  await writeFile(config, await haproxyRecipe());
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    KEYCARD_LB_BIND: `127.0.0.1:${options.port}`,
    KEYCARD_LB_STATS: socket,
    KEYCARD_PUBLIC_HOST: options.publicHost,
    KEYCARD_CHECK_INTERVAL: options.checkInterval,
    ...Object.fromEntries(
      options.servers.map((port, index) => [`KEYCARD_${index + 1}`, `127.0.0.1:${port}`]),
    ),
  };
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', config], { env });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stats = async () => parseStats(await runtimeCommand(socket, 'show stat'), 'keycard');
  const balancer: LoadBalancer = {
    url: `http://127.0.0.1:${options.port}`,
    stats,
    async waitFor(accept, what, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let last: unknown;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`HAProxy exited:\n${output}`);
        try {
          if (accept(await stats())) return;
        } catch (error) {
          last = error; // the socket appears once HAProxy has parsed its configuration
        }
        if (Date.now() > deadline) {
          throw new Error(`HAProxy: timed out waiting for ${what} (${String(last ?? 'no match')})`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  return balancer;
}
