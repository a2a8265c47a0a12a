import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { isApiPath } from './paths.ts';

/**
 * DESIGN §2 Headers. The CSP allows no inline script and no framing; Referrer-Policy is no-referrer
 * because verification codes travel in URLs; HSTS only when the public origin is https, so a
 * development browser is never pinned to https on localhost. Inline styles are allowed only by the
 * hashes in `styleSources` (the SPA page's first-paint colours).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  publicUrl: string,
  styleSources: readonly string[] = [],
): Promise<void> {
  const https = new URL(publicUrl).protocol === 'https:';
  await app.register(helmet, {
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
        formAction: ["'self'"],
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
    // Same rule as frame-ancestors 'none', for browsers that only know the older header.
    frameguard: { action: 'deny' },
    xContentTypeOptions: true,
  });
  // API answers carry account state and codes: no cache may keep them, error answers included
  // (onSend runs for every reply, whichever handler produced it). The one exception is an answer
  // its route marked no-cache, the text resource: no account state, and every use still asks here.
  app.addHook('onSend', async (request, reply, payload) => {
    if (isApiPath(request.url) && reply.getHeader('cache-control') !== 'no-cache') {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });
}
