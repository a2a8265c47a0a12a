import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';

/** The relying party's back-channel logout endpoint: a real HTTP server that records what it is sent. */
export class LogoutReceiver {
  readonly received: string[] = [];
  /** What it answers next; a relying party that is down or failing answers 5xx. */
  status = 200;
  /** Where it sends the poster on with a 3xx `status`, if anywhere. */
  location: string | undefined;
  /** Connections made to it, also those closed before any request was sent. */
  connections = 0;
  private readonly server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      this.received.push(
        `${request.method} ${request.headers['content-type']} ${new URLSearchParams(body).get('logout_token')}`,
      );
      const location = this.location === undefined ? {} : { location: this.location };
      response.writeHead(this.status, { 'cache-control': 'no-store', ...location }).end();
    });
  });

  /** Listens on `address`, any of 127.0.0.0/8 (default 127.0.0.1). */
  constructor(private readonly address = '127.0.0.1') {}

  /** Starts listening (once) and answers the endpoint's URL, with `host` in it if given. */
  async listen(host = this.address): Promise<string> {
    if (!this.server.listening) {
      this.server.on('connection', () => {
        this.connections += 1;
      });
      this.server.listen(0, this.address);
      await once(this.server, 'listening');
    }
    return `http://${host}:${(this.server.address() as AddressInfo).port}/backchannel-logout`;
  }

  /** The logout tokens received, in order. */
  tokens(): string[] {
    return this.received.map((line) => {
      const [method, type, token] = line.split(' ');
      expect(method).toBe('POST');
      expect(type).toBe('application/x-www-form-urlencoded');
      return token ?? '';
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
