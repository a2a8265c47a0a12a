import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.ts';
import { processRegistry } from './process-metrics.ts';

/** Where Prometheus scrapes, on the metrics listener only. */
export const METRICS_PATH = '/metrics';

export interface MetricsListener {
  /** The bound address, e.g. to read the port when 0 was asked for. */
  readonly address: AddressInfo;
  /** Stops accepting and closes every connection, a scrape in flight included. */
  close(): Promise<void>;
}

function answer(response: ServerResponse, status: number, body: string, contentType: string): void {
  response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
  response.end(body);
}

/**
 * The metrics listener (METRICS_PORT, off by default): `GET /metrics` answers the Prometheus text,
 * anything else 404 or 405. A port of its own, not a path of the service: it is never behind the
 * public load balancer, needs no token, and an operator exposes it only to the scraper (README,
 * Metrics). It shows no personal data (meters.ts).
 */
export async function listenForScrapes(
  metrics: Metrics,
  { host, port }: { readonly host: string; readonly port: number },
): Promise<MetricsListener> {
  // Made now, so the event-loop monitor has watched since the listener opened, not since the first scrape.
  processRegistry();
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH) return answer(response, 404, 'Not found.\n', 'text/plain; charset=utf-8');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD');
      return answer(response, 405, 'Method not allowed.\n', 'text/plain; charset=utf-8');
    }
    metrics.scrape().then(
      (text) => answer(response, 200, text, metrics.contentType),
      () => answer(response, 500, 'The metrics could not be collected.\n', 'text/plain; charset=utf-8'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
