import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { startPeriodicJob } from '../src/housekeeping/periodic-job.ts';
import { createMailService } from '../src/mail/mail-service.ts';
import type { MailTransport } from '../src/mail/transport.ts';
import { stopService } from '../src/shutdown.ts';
import type { Database } from '../src/store/database.ts';
import { migrateDatabase } from '../src/store/migrate.ts';
import { openDatabase } from '../src/store/open-database.ts';
import { eventually, PUBLIC_URL, recordingLog, resetRequest } from './mail-kit.ts';
import { buildTestApp, testConfig } from './support/app.ts';
import { openMigratedPglite } from './support/database.ts';

/** A promise with its resolve function, to hold a request or a send until the test lets it go. */
function gate(): { readonly opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * A housekeeping job whose pass is `pass`, and a database that only notes its closing: what a stop
 * does with them lands in `events`.
 */
function housekeepingStandIns(events: string[], pass: (signal: AbortSignal) => Promise<number>) {
  const job = startPeriodicJob({
    run: pass,
    intervalMs: 60_000,
    log: { info: () => {}, error: (message) => events.push(message) },
    deleted: (count) => `${count} deleted`,
    failed: 'pass failed',
  });
  const database = {
    close: async () => {
      events.push('database closed');
    },
  } as unknown as Database;
  return { job, database };
}

interface Answer {
  readonly status: number;
  readonly connection: string | undefined;
  readonly body: string;
}

function get(port: number, path: string, agent?: http.Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body }),
      );
    });
    request.on('error', reject);
  });
}

function connectionRefused(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('stopService: what a SIGTERM does once the service runs', () => {
  it('stops accepting, finishes the request and the mail send in flight, then closes the database', async () => {
    const events: string[] = [];
    const opened = await openDatabase({ memory: true });
    await migrateDatabase(opened);
    const database: Database = {
      ...opened,
      close: async () => {
        events.push('database closed');
        await opened.close();
      },
    };
    cleanup.push(async () => {
      if (!events.includes('database closed')) await opened.close();
    });

    const requestEntered = gate();
    const requestReleased = gate();
    const sendEntered = gate();
    const sendReleased = gate();
    const transport: MailTransport = {
      kind: 'smtp',
      secrets: [],
      close: () => {},
      send: async () => {
        sendEntered.open();
        await sendReleased.opened;
        events.push('mail sent');
      },
    };
    const config = testConfig({ PUBLIC_URL });
    const mail = createMailService({ config, db: database.db, log: recordingLog(), transport });
    const app = await buildTestApp(database.db, {
      env: { PUBLIC_URL },
      mail,
      routes: [
        (api) => {
          api.get('/api/quick', async () => ({ quick: true }));
          api.get('/api/slow', async () => {
            requestEntered.open();
            await requestReleased.opened;
            return { finished: true };
          });
        },
      ],
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;

    mail.start();
    await mail.queue(database.db, resetRequest('dana@example.test'));
    mail.nudge();
    await sendEntered.opened;
    const inFlight = get(port, '/api/slow');
    await requestEntered.opened;
    // A browser's kept-alive connection with nothing in flight must not hold the shutdown up.
    const keepAlive = new http.Agent({ keepAlive: true });
    cleanup.push(async () => keepAlive.destroy());
    expect(await get(port, '/api/quick', keepAlive)).toMatchObject({ status: 200, connection: 'keep-alive' });
    const [idleSocket] = Object.values(keepAlive.freeSockets).flat();
    const idleClosed = new Promise<void>((resolve) => idleSocket?.once('close', () => resolve()));
    expect(idleSocket).toBeDefined();

    const stopped = stopService({ housekeeping: [], app, database });
    await eventually(async () => !app.server.listening);
    expect(await connectionRefused(port)).toBe('ECONNREFUSED');
    await idleClosed;
    expect(events).toEqual([]);

    requestReleased.open();
    const answer = await inFlight;
    events.push('request answered');
    // Its connection closes with the answer instead of waiting out the keep-alive timeout.
    expect(answer).toEqual({ status: 200, connection: 'close', body: JSON.stringify({ finished: true }) });
    expect(events).not.toContain('database closed');

    sendReleased.open();
    await stopped;
    expect(events).toEqual(['request answered', 'mail sent', 'database closed']);
    await expect(opened.db.execute(sql`select 1`)).rejects.toThrow();
  }, 30_000);

  it("closes the connection of a hijacked answer in flight too (the provider's), so the stop does not wait on it", async () => {
    const database = await openMigratedPglite();
    cleanup.push(() => database.close());
    const entered = gate();
    const released = gate();
    const app = await buildTestApp(database.db, {
      routes: [
        (api) => {
          api.get('/api/hijacked', async (_request, reply) => {
            reply.hijack();
            entered.open();
            await released.opened;
            reply.raw.writeHead(200, { 'content-type': 'text/plain' });
            reply.raw.end('written by hand');
          });
        },
      ],
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const keepAlive = new http.Agent({ keepAlive: true });
    cleanup.push(async () => keepAlive.destroy());
    const inFlight = get(port, '/api/hijacked', keepAlive);
    await entered.opened;

    const stopped = stopService({ housekeeping: [], app });
    await eventually(async () => !app.server.listening);
    released.open();
    expect(await inFlight).toEqual({ status: 200, connection: 'close', body: 'written by hand' });
    await stopped;
  });

  it('lets a housekeeping pass in flight finish before the database closes', async () => {
    const events: string[] = [];
    const passEntered = gate();
    const passReleased = gate();
    const { job, database } = housekeepingStandIns(events, async () => {
      passEntered.open();
      await passReleased.opened;
      events.push('pass finished');
      return 0;
    });
    await passEntered.opened;
    const stopping = stopService({ housekeeping: [job], database });
    // A turn of the event loop: time enough for a stop that does not wait to close the database.
    await new Promise((resolve) => setImmediate(resolve));
    passReleased.open();
    await stopping;
    expect(events).toEqual(['pass finished', 'database closed']);
  });

  it('tells a housekeeping pass in flight that the service stops, so a long one ends early', async () => {
    const events: string[] = [];
    const passEntered = gate();
    // A pass that would go on for good but for the stop (a backlog of batches, say).
    const { job, database } = housekeepingStandIns(events, (signal) => {
      passEntered.open();
      return new Promise<number>((resolve) => {
        signal.addEventListener('abort', () => {
          events.push('pass told to stop');
          resolve(0);
        });
      });
    });
    await passEntered.opened;
    await stopService({ housekeeping: [job], database });
    expect(events).toEqual(['pass told to stop', 'database closed']);
  });
});
