import type { FastifyInstance } from 'fastify';
import { hostNameOf, isLoopbackHost } from '../config-fields.ts';
import { ServiceError } from '../errors/service-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers whatever the Host: it reveals nothing about the name it is asked under. */
    anyHost?: boolean;
  }
}

/** How many allowed Host values are remembered as sent. */
const SEEN_HOSTS = 64;

export interface AllowedHostsOptions {
  /** PUBLIC_URL's host name and PUBLIC_HOST_ALIASES, lower-case, without ports. */
  readonly hosts: readonly string[];
  /** Development and tests: any loopback name (localhost, 127.0.0.0/8, [::1]) too. */
  readonly loopback: boolean;
}

/**
 * The service answers only for the names it is configured under: any other Host (or X-Forwarded-Host
 * behind a trusted proxy) is answered 421 Misdirected Request before any route runs. Links never use
 * the request's Host anyway (PUBLIC_URL does); this stops the service from serving pages, cookies and
 * protocol answers under a name an attacker chose, e.g. by DNS rebinding a developer's localhost.
 * Ports are not compared: a proxy may forward the public name with or without one. The health probes
 * (health.ts) answer under any name: a load balancer or an orchestrator probes each instance by its
 * own address, which no configuration lists in advance, and the answers carry no page, cookie or link.
 */
export function registerAllowedHosts(app: FastifyInstance, options: AllowedHostsOptions): void {
  const allowed = new Set(options.hosts.map((host) => hostNameOf(host) ?? host));
  const isAllowed = (host: string) => {
    const name = hostNameOf(host);
    return name !== undefined && (allowed.has(name) || (options.loopback && isLoopbackHost(name)));
  };
  // Host values already found allowed, as sent: a browser sends the same one on every request, which
  // then needs no parsing. Bounded, since a client may vary ports and letter case without end.
  const seen = new Set<string>();
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.config?.anyHost === true) return done();
    const host = request.host;
    if (seen.has(host)) return done();
    if (!isAllowed(host)) {
      return done(
        new ServiceError('misdirected_request', 'This service does not answer for that host name.'),
      );
    }
    if (seen.size < SEEN_HOSTS) seen.add(host);
    done();
  });
}
