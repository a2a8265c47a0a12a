import { ERROR_REASON_PARAM, RATE_LIMITED_REASON, WAIT_PARAM } from '@keycard/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isPersonFacing } from '../oidc/outage.ts';
import { protocolMethods, protocolRoute } from '../oidc/protocol-routes.ts';
import { OIDC_MOUNT } from '../oidc/provider.ts';
import { pathOf } from './paths.ts';
import type { RequestLimitError } from './rate-limit.ts';

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
  reply.header('cache-control', 'no-store');
  if (isPersonFacing(path)) {
    request.log.warn(
      {
        reference: request.id,
        endpoint: protocolRoute(path) ?? null,
        reason: 'rate_limited',
        answer: 'error_page',
      },
      'protocol request refused',
    );
    const query = new URLSearchParams({
      [ERROR_REASON_PARAM]: RATE_LIMITED_REASON,
      [WAIT_PARAM]: String(refusal.waitSeconds),
    });
    return reply.code(303).redirect(`/error/${request.id}?${query}`);
  }
  const origin = request.headers.origin;
  // The endpoints with a preflight are those the provider answers across origins (protocol-routes.ts).
  if (origin !== undefined && protocolMethods(path)?.includes('OPTIONS')) {
    reply
      .header('access-control-allow-origin', origin)
      .header('access-control-expose-headers', 'Retry-After')
      .header('vary', 'Origin');
  }
  return reply
    .code(429)
    .type('application/json; charset=utf-8')
    .send({
      error: 'temporarily_unavailable',
      error_description: `too many requests from this network; try again in ${refusal.waitSeconds} seconds`,
    });
}
