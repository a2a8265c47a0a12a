import pg from 'pg';
import type { Database } from './database.ts';

export interface NotificationHandlers {
  /** A notification's payload (sent with `pg_notify(channel, payload)` by a committed transaction). */
  onNotification(payload: string): void;
  /** LISTEN is in force: every notification from now on is heard. */
  onListening(): void;
  /** The connection is gone (or failed its health check): notifications may be missed until onListening. */
  onLost(reason: string): void;
}

export interface ListenerOptions {
  readonly connectionString: string;
  /** A plain identifier (letters, digits, underscores). */
  readonly channel: string;
  readonly handlers: NotificationHandlers;
  /** Waits before each attempt to connect again, the last one repeated. */
  readonly retryMs?: readonly number[];
  /** How often the connection is checked with a statement; a check that fails or hangs ends it. */
  readonly checkEveryMs?: number;
  /** How long a connection attempt or a check may take. */
  readonly timeoutMs?: number;
}

export interface NotificationListener {
  /** Ends the connection (within `timeoutMs`, whatever the network does); no handler is called afterwards. */
  close(): Promise<void>;
}

/** The listener's connections carry this name in pg_stat_activity, for operators (and tests). */
export const LISTENER_APPLICATION_NAME = 'keycard-notifications';

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * Ends `client`, and drops its socket when the server does not answer within `ms`: on a connection
 * that went silent, a polite end would wait for the network to give up, minutes later.
 */
async function endWithin(client: pg.Client, ms: number): Promise<void> {
  const timer = setTimeout(() => {
    // pg's Client keeps its socket here (not in its types); destroying it ends the connection at once.
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  }, ms);
  timer.unref();
  await client.end().catch(() => {});
  clearTimeout(timer);
}

/**
 * A PostgreSQL connection of its own that LISTENs on `channel` (the pool's connections are shared
 * and come and go, so they cannot hold a LISTEN). A connection lost (server restart, failover, an
 * administrator ending it, a network that stopped answering the periodic check) is reported and
 * opened again after the next wait of `retryMs`; onLost and onListening alternate, starting with
 * onListening.
 */
export function listenForNotifications({
  connectionString,
  channel,
  handlers,
  retryMs = [1_000, 2_000, 5_000, 10_000, 30_000],
  checkEveryMs = 10_000,
  timeoutMs = 5_000,
}: ListenerOptions): NotificationListener {
  if (!IDENTIFIER.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  let closed = false;
  let failures = 0;
  let current: pg.Client | null = null;
  let listening = false;
  let timer: NodeJS.Timeout | undefined;

  const schedule = (run: () => void, ms: number) => {
    clearTimeout(timer);
    if (!closed) timer = setTimeout(run, ms);
  };

  /** Reports the loss of `client` once, ends it, and connects again after a wait. */
  const lose = (client: pg.Client, reason: string) => {
    if (client !== current) return;
    current = null;
    void endWithin(client, timeoutMs);
    if (closed) return;
    if (listening) {
      listening = false;
      handlers.onLost(reason);
    }
    const wait = retryMs[Math.min(failures, retryMs.length - 1)] ?? 1_000;
    failures++;
    schedule(connect, wait);
  };

  const check = async (client: pg.Client) => {
    try {
      await client.query('select 1');
      if (client === current) schedule(() => void check(client), checkEveryMs);
    } catch (error) {
      lose(client, error instanceof Error ? error.message : String(error));
    }
  };

  const connect = async () => {
    const client = new pg.Client({
      connectionString,
      application_name: LISTENER_APPLICATION_NAME,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      keepAlive: true,
    });
    current = client;
    client.on('error', (error) => lose(client, error.message));
    client.on('end', () => lose(client, 'the connection ended'));
    client.on('notification', (message) => {
      if (client === current && message.channel === channel) handlers.onNotification(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      lose(client, error instanceof Error ? error.message : String(error));
      return;
    }
    if (client !== current) return;
    failures = 0;
    listening = true;
    handlers.onListening();
    schedule(() => void check(client), checkEveryMs);
  };

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const client = current;
      current = null;
      listening = false;
      if (client) await endWithin(client, timeoutMs);
    },
  };
}

/** Where a listener tells the operator it lost its connection and got it back. */
export interface ListenerLog {
  info(message: string): void;
  warn(message: string): void;
}

/** What a followed change listener says when it is lost (with the reason) and when it is back after that. */
export interface ListenerMessages {
  readonly back: string;
  lost(reason: string): string;
}

/** The URL the PostgreSQL pool of `database` was opened with, for a listener's own connection. */
export function connectionStringOf(database: Extract<Database, { kind: 'postgres' }>): string {
  const { connectionString } = database.client.options;
  if (connectionString === undefined) throw new Error('the PostgreSQL pool was opened without a URL');
  return connectionString;
}

/**
 * listenForNotifications with the operator told: a warning each time the listener is lost, and a
 * line when it listens again after a loss (not at its first start).
 */
export function listenReporting({
  log,
  messages,
  handlers,
  ...listener
}: ListenerOptions & {
  readonly log: ListenerLog;
  readonly messages: ListenerMessages;
}): NotificationListener {
  let lost = false;
  return listenForNotifications({
    ...listener,
    handlers: {
      onNotification: handlers.onNotification,
      onListening: () => {
        handlers.onListening();
        if (lost) log.info(messages.back);
        lost = false;
      },
      onLost: (reason) => {
        handlers.onLost(reason);
        lost = true;
        log.warn(messages.lost(reason));
      },
    },
  });
}
