import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHUTDOWN_DEADLINE_MS } from '../src/shutdown.ts';
import { eventually } from './mail-kit.ts';
import {
  freePort,
  seedEmbeddedDatabase,
  startService,
  useServiceProcesses,
} from './support/service-process.ts';

useServiceProcesses();

const LISTENING = /Keycard listening on (\S+)/;
/** Short, so the test is; production drains 5000 ms unless configured (config.test.ts). */
const DRAIN_MS = 1500;

/** A request whose body is only half sent: it stays in flight until `finish()` sends the rest. */
function requestInFlight(port: number) {
  const body = 'grant_type=client_credentials&client_id=no-such-client';
  const socket = net.connect({ host: '127.0.0.1', port });
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  const answered = new Promise<string>((resolve, reject) => {
    socket.once('end', () => resolve(received));
    socket.once('error', reject);
  });
  const halfSent = new Promise<void>((resolve) =>
    socket.once('connect', () => {
      socket.write(
        `POST /oidc/token HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n` +
          body.slice(0, 10),
        () => resolve(),
      );
    }),
  );
  return { halfSent, answered, finish: () => socket.write(body.slice(10)) };
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function statusOf(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

describe('a SIGTERM drains before the stop (SHUTDOWN_DRAIN_MS)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'keycard-drain-'));
    await seedEmbeddedDatabase(dataDir);
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('ready answers 503 while live still answers, a request in flight finishes, then exit 0 within the deadline', async () => {
    const port = await freePort();
    const service = startService({
      DATA_DIR: dataDir,
      PORT: String(port),
      NODE_ENV: 'development',
      DEMO: 'false',
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    });
    const base = `http://127.0.0.1:${port}`;
    try {
      await service.waitFor(LISTENING);
      // The mail worker starts right after listening; ready answers 200 from then on.
      await eventually(async () => (await statusOf(`${base}/health/ready`)).status === 200);
      const inFlight = requestInFlight(port);
      await inFlight.halfSent;

      service.child.kill('SIGTERM');
      const signalled = performance.now();
      await eventually(async () => (await statusOf(`${base}/health/ready`)).status === 503);
      const [ready, live] = await Promise.all([
        statusOf(`${base}/health/ready`),
        statusOf(`${base}/health/live`),
      ]);
      expect(ready).toMatchObject({ status: 503, body: { status: 'draining' } });
      expect(live).toEqual({ status: 200, body: { status: 'pass' } });

      // Only after the drain does the service stop accepting connections.
      await eventually(async () => !(await connects(port)), DRAIN_MS + SHUTDOWN_DEADLINE_MS);
      expect(performance.now() - signalled).toBeGreaterThanOrEqual(DRAIN_MS - 50);
      inFlight.finish();
      expect(await inFlight.answered).toMatch(/^HTTP\/1\.1 401 /);

      expect(await service.exited()).toBe(0);
      expect(performance.now() - signalled).toBeLessThan(DRAIN_MS + SHUTDOWN_DEADLINE_MS);
      expect(service.output()).toContain(`Stopping: GET /health/ready answers 503 for ${DRAIN_MS} ms`);
    } finally {
      service.child.kill('SIGKILL');
    }
  }, 60_000);
});
