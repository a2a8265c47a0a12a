import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.ts';
import { administer, databaseUrlOn } from '../../test/support/postgres-admin.ts';
import { listenForNotifications, type NotificationListener } from './notification-listener.ts';

/**
 * The listener on a real PostgreSQL server, reached through a TCP relay the test can freeze: the
 * connection then stays open but nothing passes, as when a network drops packets without a word.
 * vitest.config.ts includes this file only when DATABASE_URL names a PostgreSQL server.
 */
const CHANNEL = 'keycard_listener_test';

interface Relay {
  readonly port: number;
  /** From now on nothing passes on the connections open now; later ones pass. */
  freeze(): void;
  close(): Promise<void>;
}

async function startRelay(target: URL): Promise<Relay> {
  const open: { client: Socket; server: Socket }[] = [];
  const relay: Server = createServer((client) => {
    const server = tcpConnect(Number(target.port || 5432), target.hostname);
    client.pipe(server);
    server.pipe(client);
    const end = () => {
      client.destroy();
      server.destroy();
    };
    client.on('error', end);
    server.on('error', end);
    open.push({ client, server });
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const address = relay.address();
  if (address === null || typeof address === 'string') throw new Error('the relay has no port');
  return {
    port: address.port,
    freeze() {
      for (const { client, server } of open) {
        client.unpipe(server);
        server.unpipe(client);
        client.pause();
        server.pause();
      }
    },
    async close() {
      await new Promise<void>((resolve) => {
        relay.close(() => resolve());
        for (const { client, server } of open) {
          client.destroy();
          server.destroy();
        }
      });
    },
  };
}

let database: TestDatabase;
let relay: Relay;

beforeAll(async () => {
  database = await createTestDatabase({ migrated: false });
  relay = await startRelay(new URL(String(database.databaseUrl)));
});

afterAll(async () => {
  await relay.close();
  await database.dispose();
});

describe('the notification listener (store/notification-listener.ts)', () => {
  it('hears notifications, reports a connection that stopped answering its check, and listens again', async () => {
    const viaRelay = new URL(String(database.databaseUrl));
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(relay.port);
    const events: string[] = [];
    const listener: NotificationListener = listenForNotifications({
      connectionString: viaRelay.href,
      channel: CHANNEL,
      checkEveryMs: 100,
      timeoutMs: 500,
      retryMs: [100],
      handlers: {
        onNotification: (payload) => events.push(`heard ${payload}`),
        onListening: () => events.push('listening'),
        onLost: () => events.push('lost'),
      },
    });
    try {
      await vi.waitFor(() => expect(events).toEqual(['listening']), { timeout: 5_000 });
      await database.database.db.execute(sql`select pg_notify(${CHANNEL}, 'planner')`);
      await vi.waitFor(() => expect(events).toEqual(['listening', 'heard planner']), { timeout: 5_000 });
      // Silently dead: no error, no end; only the check's timeout can tell.
      relay.freeze();
      await vi.waitFor(() => expect(events).toContain('lost'), { timeout: 5_000 });
      await vi.waitFor(() => expect(events).toEqual(['listening', 'heard planner', 'lost', 'listening']), {
        timeout: 5_000,
      });
      await database.database.db.execute(sql`select pg_notify(${CHANNEL}, 'reports')`);
      await vi.waitFor(() => expect(events.at(-1)).toBe('heard reports'), { timeout: 5_000 });
    } finally {
      await listener.close();
    }
  });

  it('closes within its time-out on a connection that went silent (a stop does not wait for the network)', async () => {
    const viaRelay = new URL(String(database.databaseUrl));
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(relay.port);
    const events: string[] = [];
    const listener = listenForNotifications({
      connectionString: viaRelay.href,
      channel: CHANNEL,
      checkEveryMs: 3_600_000,
      timeoutMs: 500,
      handlers: {
        onNotification: () => events.push('heard'),
        onListening: () => events.push('listening'),
        onLost: () => events.push('lost'),
      },
    });
    await vi.waitFor(() => expect(events).toEqual(['listening']), { timeout: 5_000 });
    relay.freeze();
    const started = performance.now();
    await listener.close();
    // 500 ms of time-out, with room for a busy machine; a polite end alone would wait for minutes.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(events).toEqual(['listening']);
  });

  it('keeps trying while the database refuses, listens once it can, and calls nothing once closed', async () => {
    const serverUrl = String(process.env.DATABASE_URL);
    const name = `keycard_listener_${randomBytes(4).toString('hex')}`;
    const events: string[] = [];
    const listener = listenForNotifications({
      connectionString: databaseUrlOn(serverUrl, name),
      channel: CHANNEL,
      retryMs: [50],
      handlers: {
        onNotification: () => events.push('heard'),
        onListening: () => events.push('listening'),
        onLost: () => events.push('lost'),
      },
    });
    try {
      // The database does not exist yet: every attempt is refused, so nothing is listening or lost.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(events).toEqual([]);
      await administer(serverUrl, `create database ${name}`);
      await vi.waitFor(() => expect(events).toEqual(['listening']), { timeout: 5_000 });
    } finally {
      await listener.close();
      // Its connection ended by the server after the close: no handler hears of it.
      await administer(serverUrl, `drop database if exists ${name} with (force)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events).toEqual(['listening']);
  });
});
