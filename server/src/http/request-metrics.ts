import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpMeter } from '../metrics/meters.ts';
import { OIDC_MOUNT } from '../oidc/provider.ts';
import { pathOf } from './paths.ts';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The provider's endpoints below /oidc (oidc-provider's default routes, the resume and sign-out
 * steps included): one route of Fastify's serves them all, so the path is matched against this
 * closed list; anything else counts as `/oidc/*`.
 */
const OIDC_ENDPOINTS: readonly (readonly [RegExp, string])[] = [
  [/^\/\.well-known\/openid-configuration$/, '/.well-known/openid-configuration'],
  [/^\/auth$/, '/auth'],
  [/^\/auth\/[^/]+$/, '/auth/:uid'],
  [/^\/token$/, '/token'],
  [/^\/token\/introspection$/, '/token/introspection'],
  [/^\/token\/revocation$/, '/token/revocation'],
  [/^\/jwks$/, '/jwks'],
  [/^\/me$/, '/me'],
  [/^\/session\/end$/, '/session/end'],
  [/^\/session\/end\/confirm$/, '/session/end/confirm'],
  [/^\/session\/end\/success$/, '/session/end/success'],
];

function oidcRoute(url: string): string {
  const below = pathOf(url).slice(OIDC_MOUNT.length);
  const known = OIDC_ENDPOINTS.find(([pattern]) => pattern.test(below));
  return known ? `${OIDC_MOUNT}${known[1]}` : `${OIDC_MOUNT}/*`;
}

/**
 * The route a request is counted under: the pattern it was answered by, never its URL, which may
 * carry a code (/unlock/…) or anything a client typed. `fallback`: no route of its own, that is a
 * page of the SPA or a not-found answer (the status tells them apart).
 */
function routeLabel(request: FastifyRequest, url: string): string {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return 'fallback';
  if (pattern === OIDC_MOUNT || pattern === `${OIDC_MOUNT}/*`) return oidcRoute(url);
  return pattern;
}

/**
 * Counts and times every answer once its last byte is written, however it was given: by a route,
 * by an early hook (421, 405, 429), or by the provider under /oidc, which writes its answers itself
 * (Fastify watches the response, not the handler). The time runs from routing, before any hook. A
 * request whose client went away before its answer was written is not counted.
 */
export function measureRequests(app: FastifyInstance, meter: HttpMeter): void {
  app.addHook('onResponse', (request, reply, done) => {
    countAnswer(meter, request, reply);
    done();
  });
}

/**
 * Counts one answer, which took `seconds` (Fastify's time from routing by default); also those no
 * hook sees and Fastify does not time (http/framework-errors.ts).
 */
export function countAnswer(
  meter: HttpMeter,
  request: FastifyRequest,
  reply: FastifyReply,
  seconds = reply.elapsedTime / 1000,
): void {
  meter.answered(
    {
      method: METHODS.has(request.method) ? request.method : 'other',
      // As it arrived: the provider's mount rewrites the URL below /oidc and keeps this one.
      route: routeLabel(request, request.originalUrl),
      status: String(reply.raw.statusCode),
    },
    seconds,
  );
}
