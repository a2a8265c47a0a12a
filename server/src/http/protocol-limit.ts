import type { FastifyReply, FastifyRequest } from 'fastify';
import { isPersonFacing } from '../oidc/outage.ts';
import { protocolMethods, protocolRoute } from '../oidc/protocol-routes.ts';
import { OIDC_MOUNT } from '../oidc/provider.ts';
import { pathOf } from './paths.ts';
import { rateLimitedPageQuery, refuseToErrorPage } from './protocol-error-page.ts';
import type { RequestLimitError } from './rate-limit.ts';

/** The provider's endpoints every origin may read (its own rule: discovery and the key set). */
const OPEN_ENDPOINTS: ReadonlySet<string> = new Set([
  '/jwks',
  '/.well-known/openid-configuration',
  '/.well-known/oauth-authorization-server',
]);

/**
 * The refusal is readable by the browser client that called, as the provider's answer would have
 * been: on the endpoints it answers across origins (those with a preflight, protocol-routes.ts),
 * the calling origin is named. Which client called is not known before the provider runs, so the
 * client endpoints name any web origin ("null", which no registered redirect URI has, excepted); it
 * tells a page no more than the open endpoints' own refusal tells every origin: that its network is
 * over the limit.
 */
function corsForRefusal(request: FastifyRequest, reply: FastifyReply, path: string): void {
  if (!protocolMethods(path)?.includes('OPTIONS')) return;
  // The limit answers before any handler, so no other Vary is set yet.
  reply.header('vary', 'Origin');
  const origin = request.headers.origin;
  if (origin === undefined || (origin === 'null' && !OPEN_ENDPOINTS.has(protocolRoute(path) ?? ''))) return;
  reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', 'Retry-After');
}

/**
 * The per-IP request limit's refusal of a request to the provider, in the protocol's terms rather
 * than the API's JSON:
 * - a page a person's browser is sent to (authorization, sign-out) goes to the SPA's error page, which
 *   says how long to wait; the log line of its reference says why;
 * - a relying party's call gets 429 with an OAuth error body (RFC 6749 §5.2's shape,
 *   `temporarily_unavailable` as §4.1.2.1 names an overloaded server) and Retry-After, both readable
 *   by a browser client's script on the endpoints the provider answers across origins.
 */
export function answerLimitedProtocolRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: RequestLimitError,
) {
  const path = pathOf(request.url).slice(OIDC_MOUNT.length);
  if (isPersonFacing(path)) {
    return refuseToErrorPage(
      request,
      reply,
      path,
      { reason: 'rate_limited' },
      rateLimitedPageQuery(refusal.waitSeconds),
    );
  }
  reply.header('cache-control', 'no-store');
  corsForRefusal(request, reply, path);
  return reply.code(429).send({
    error: 'temporarily_unavailable',
    error_description: `too many requests from this network; try again in ${refusal.waitSeconds} seconds`,
  });
}
