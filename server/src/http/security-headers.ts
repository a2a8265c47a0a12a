import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { isApiPath, isHealthPath } from './paths.ts';

const HSTS = 'strict-transport-security';

/**
 * The headers helmet sets with `options`, taken once at start-up: they depend on nothing in the
 * request, so every answer gets the same values without helmet building its middleware (and the
 * policy text) again for each one.
 */
function helmetHeaders(options: Readonly<HelmetOptions>): readonly (readonly [string, string])[] {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  helmet(options)(request, response, (error?: unknown) => {
    if (error) throw error;
  });
  return Object.entries(response.getHeaders()).map(([name, value]) => [name, String(value)] as const);
}

/** DESIGN §2's headers, computed once: those of every answer, and HSTS (none over http). */
export interface SecurityHeaders {
  readonly everyAnswer: readonly (readonly [string, string])[];
  readonly hsts: string | undefined;
}

/**
 * DESIGN §2 Headers. The CSP allows no inline script and no framing; Referrer-Policy is no-referrer
 * because verification codes travel in URLs; HSTS only when the public origin is https, so a
 * development browser is never pinned to https on localhost. Inline styles are allowed only by the
 * hashes in `styleSources` (the SPA page's first-paint colours).
 */
export function securityHeaders(publicUrl: string, styleSources: readonly string[] = []): SecurityHeaders {
  const https = new URL(publicUrl).protocol === 'https:';
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", ...styleSources],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        // The provider's self-submitting pages add the one client origin they send the browser to
        // (oidc/form-action.ts).
        formAction: ["'self'"],
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
    // Same rule as frame-ancestors 'none', for browsers that only know the older header.
    frameguard: { action: 'deny' },
    xContentTypeOptions: true,
  });
  return {
    everyAnswer: headers.filter(([name]) => name !== HSTS),
    hsts: headers.find(([name]) => name === HSTS)?.[1],
  };
}

/**
 * Sets `headers.everyAnswer` on every answer, and no-store on every API answer. On the raw response,
 * so the provider's own (hijacked) answers carry them too. HSTS waits for the host check
 * (registerTransportSecurity): a refusal of another name must not pin it, or with includeSubDomains
 * every name below it, to https for a year.
 */
export function registerSecurityHeaders(app: FastifyInstance, headers: SecurityHeaders): void {
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers.everyAnswer) reply.raw.setHeader(name, value);
    done();
  });
  // API answers carry account state and codes: no cache may keep them, error answers included
  // (onSend runs for every reply, whichever handler produced it). The one exception is an answer
  // its route marked no-cache, the text resource: no account state, and every use still asks here.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isApiPath(request.url) && reply.getHeader('cache-control') !== 'no-cache') {
      reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
}

/**
 * HSTS, registered after the allowed-hosts check (app.ts): only an answer for a name the service is
 * configured under says to keep to https. The health probes answer under any name (health.ts), so
 * they say nothing of it: a probe through a name the proxy holds a certificate for must not pin that
 * name and every name below it. Nothing when PUBLIC_URL is http.
 */
export function registerTransportSecurity(app: FastifyInstance, value: string | undefined): void {
  if (value === undefined) return;
  app.addHook('onRequest', (request, reply, done) => {
    if (!isHealthPath(request.url)) reply.raw.setHeader(HSTS, value);
    done();
  });
}
