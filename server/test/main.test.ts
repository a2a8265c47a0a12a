import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME } from '../src/lock-file.ts';
import {
  freePort,
  seedEmbeddedDatabase,
  startService,
  useServiceProcesses,
} from './support/service-process.ts';

useServiceProcesses();

const LISTENING = /Keycard listening on (\S+)/;

/**
 * Each thread of process `pid` with its niceness (Linux: /proc/<pid>/task/<tid>/stat, field 19). The
 * main thread is the one whose id is the process's: Node 24 names it `MainThread`, Node 22 leaves it
 * the executable's name.
 */
function threadNiceness(pid: number): { name: string; nice: number; main: boolean }[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // The name is in parentheses and may hold any character; the fields after it start with field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      nice: Number(fields[19 - 3]),
      main: Number(tid) === pid,
    };
  });
}

describe('main: start-up, single PGlite owner, graceful shutdown', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'keycard-main-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));
  const lockFile = () => path.join(dataDir, LOCK_FILE_NAME);

  it('serves, refuses a second process on the same DATA_DIR, and releases the lock on SIGTERM', async () => {
    const port = await freePort();
    const metricsPort = await freePort();
    const first = startService({
      DATA_DIR: dataDir,
      PORT: String(port),
      NODE_ENV: 'development',
      METRICS_PORT: String(metricsPort),
    });
    const [, url] = await first.waitFor(LISTENING);
    expect(url).toBe(`http://localhost:${port}`);
    await first.waitFor(/Open the Keycard app: \S+\/$/m);
    // DESIGN §2 Modes: the demo account's password is printed at the first start only.
    await first.waitFor(/Demo account created: demo@keycard\.example \/ password \S+/);
    // No SMTP_URL, listening on 127.0.0.1: the dev mailbox is on, and the log says so and why.
    expect(first.output()).toContain('Dev mailbox on (no SMTP_URL and HOST 127.0.0.1 is a loopback address)');
    expect(first.output()).toMatch(/Read outgoing mail in the dev mailbox: \S+\/dev\/mail$/m);
    expect(first.output().match(/listening/gi)).toHaveLength(1);
    const token = await fetch(`http://127.0.0.1:${port}/api/getcsrftoken`);
    expect(token.status).toBe(200);
    // argon2's thread pool runs at nice 10, below the event loop and PGlite's thread (thread-priority.ts).
    if (process.platform === 'linux' && first.child.pid !== undefined) {
      const threads = threadNiceness(first.child.pid);
      const pool = threads.filter(({ name }) => name === 'libuv-worker');
      expect(pool.length).toBeGreaterThan(0);
      expect(pool.map(({ nice }) => nice)).toEqual(pool.map(() => 10));
      expect(threads.filter(({ name }) => name !== 'libuv-worker').map(({ nice }) => nice)).not.toContain(10);
      expect(threads.filter(({ main }) => main).map(({ nice }) => nice)).toEqual([0]);
    }
    expect(first.output()).not.toContain("argon2's threads run at the service's own priority");
    // METRICS_PORT: the metrics listener, on HOST, with the app's families, the pool's and the process's.
    expect(first.output()).toContain(`Metrics at http://127.0.0.1:${metricsPort}/metrics`);
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(
      /^keycard_http_request_duration_seconds_count\{method="GET",route="\/api\/getcsrftoken",status="200"\} 1$/m,
    );
    expect(metrics).toMatch(/^keycard_db_pool_max_connections 1$/m);
    expect(metrics).toMatch(/^process_resident_memory_bytes \d+$/m);

    const holder = readFileSync(lockFile(), 'utf8').trim();
    const second = startService({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(await second.exited()).toBe(1);
    expect(second.output()).toContain(`pid ${holder}`);
    expect(second.output()).toContain(dataDir);

    first.child.kill('SIGTERM');
    expect(await first.exited()).toBe(0);
    expect(existsSync(lockFile())).toBe(false);
    // The embedded store's vacuum ran at start (the stop waits for it) and failed on no table.
    expect(first.output()).not.toContain('vacuum failed');
  }, 90_000);

  it('takes over the stale lock of a crashed process and stops on SIGINT', async () => {
    writeFileSync(lockFile(), '999999999\n');
    const port = await freePort();
    const service = startService({ DATA_DIR: dataDir, PORT: String(port), TRUST_PROXY: '2' });
    await service.waitFor(/Sign in through the demo relying party/);
    // Whose forwarded headers count is said at start-up, where it is set at all (the first start: not).
    expect(service.output()).toContain('Proxies trusted in front: 2 (TRUST_PROXY)');
    // Reached through proxies, it serves no dev mailbox: whoever reaches them would read its links.
    expect(service.output()).not.toMatch(/dev mailbox/i);
    expect((await fetch(`http://127.0.0.1:${port}/dev/mail`)).status).toBe(404);
    service.child.kill('SIGINT');
    expect(await service.exited()).toBe(0);
    // The second start on the same data: the demo account exists, its password is not shown again.
    expect(service.output()).not.toContain('Demo account created');
    expect(existsSync(lockFile())).toBe(false);
  }, 60_000);

  it('neither serves nor announces the dev mailbox once SMTP_URL is configured', async () => {
    const smtpDataDir = await mkdtemp(path.join(tmpdir(), 'keycard-main-smtp-'));
    await seedEmbeddedDatabase(smtpDataDir);
    try {
      const port = await freePort();
      const service = startService({
        DATA_DIR: smtpDataDir,
        PORT: String(port),
        NODE_ENV: 'development',
        SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
      });
      // Printed after every start-up link, so all of them are out by then.
      await service.waitFor(/Demo account created/);
      expect(service.output()).toContain('Sign in through the demo relying party');
      expect(service.output()).not.toMatch(/dev mailbox/i);
      expect(service.output()).not.toContain('Proxies trusted');
      expect((await fetch(`http://127.0.0.1:${port}/dev/mail`)).status).toBe(404);
      service.child.kill('SIGTERM');
      expect(await service.exited()).toBe(0);
    } finally {
      await rm(smtpDataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('stops with one message naming every bad variable', async () => {
    const service = startService({ DATA_DIR: dataDir, PORT: 'x', TRUST_PROXY: 'maybe' });
    expect(await service.exited()).toBe(1);
    expect(service.output()).toMatch(/PORT: .*\n.*TRUST_PROXY: /);
    expect(service.output()).not.toMatch(/\n\s+at /);
  }, 30_000);
});
