import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import { CSRF_HEADER } from '@keycard/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { cookiePolicy } from '../cookie-policy.ts';
import { ServiceError } from '../errors/service-error.ts';
import { isApiPath, pathOf } from './paths.ts';

/**
 * API calls a browser reaches cross-site on purpose: an upstream identity provider redirects the
 * browser back to its callback (DESIGN §1 Federation), so that GET carries Sec-Fetch-Site: cross-site.
 */
export const CROSS_SITE_EXEMPTIONS: readonly { method: string; path: string }[] = [
  { method: 'GET', path: '/api/ExternalIdentityProviderCallback' },
];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function isExempt(request: FastifyRequest): boolean {
  const path = pathOf(request.url);
  // Stryker disable next-line MethodExpression: `every` is equivalent while the list holds one entry
  return CROSS_SITE_EXEMPTIONS.some((entry) => entry.method === request.method && entry.path === path);
}

function tokenHeader(request: FastifyRequest): string | undefined {
  const value = request.headers[CSRF_HEADER.toLowerCase()];
  // Stryker disable next-line ConditionalExpression: Node joins a repeated header into one string, so it is never an array here
  return typeof value === 'string' ? value : undefined;
}

/**
 * DESIGN §2 CSRF: a signed secret cookie plus a token the SPA sends in X-CSRF-TOKEN. Both checks run
 * in onRequest, before the body is read and before any handler, so a refused call has no effect.
 * `cookieSecrets[0]` signs; all of them verify, so secrets can be rotated.
 */
export async function registerCsrf(
  app: FastifyInstance,
  options: { publicUrl: string; cookieSecrets: readonly string[] },
): Promise<void> {
  const cookie = cookiePolicy(options.publicUrl).csrf;
  await app.register(fastifyCookie, { secret: [...options.cookieSecrets] });
  await app.register(fastifyCsrf, {
    cookieKey: cookie.name,
    cookieOpts: { ...cookie.options },
    // Only the header: a token in a form body would let a plain cross-site form carry it.
    getToken: tokenHeader,
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!isApiPath(request.url)) return done();
    // Fetch metadata: a cross-site page has no business calling the API, even with a GET.
    if (request.headers['sec-fetch-site'] === 'cross-site' && !isExempt(request)) {
      return done(new ServiceError('cross_site_rejected', 'Cross-site requests are not accepted.'));
    }
    if (SAFE_METHODS.has(request.method)) return done();
    app.csrfProtection(request, reply, done);
  });
}
