import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a PostgreSQL server that a test switches off and on, as an operator's
 * outage would: off, it cuts every open connection and refuses new ones (ECONNREFUSED); on again, it
 * listens on the same port, so the service's pool reconnects to the same URL without a restart.
 */
export interface DatabaseSwitch {
  /** The database URL through the relay. */
  readonly url: string;
  off(): Promise<void>;
  on(): Promise<void>;
  close(): Promise<void>;
}

export async function databaseSwitch(databaseUrl: string): Promise<DatabaseSwitch> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const relay = (client: Socket) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  };

  const on = async () => {
    const listening = createServer(relay);
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => resolve());
    });
    const address = listening.address();
    if (typeof address !== 'object' || address === null) throw new Error('the relay has no port');
    port = address.port;
    server = listening;
  };
  const off = async () => {
    const stopping = server;
    server = undefined;
    if (!stopping) return;
    const closed = new Promise<void>((resolve) => stopping.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  await on();
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return { url: url.href, off, on, close: off };
}
