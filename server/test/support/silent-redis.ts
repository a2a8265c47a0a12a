import { type AddressInfo, createServer, type Socket } from 'node:net';

/** A Redis that takes connections and reads commands, and never answers, as a paused Redis host does. */
export interface SilentRedis {
  readonly url: string;
  close(): Promise<void>;
}

export async function silentRedis(): Promise<SilentRedis> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
