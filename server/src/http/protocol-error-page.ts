import { ERROR_REASON_PARAM, RATE_LIMITED_REASON, WAIT_PARAM } from '@keycard/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { protocolRoute } from '../oidc/protocol-routes.ts';

/** Why a page of the provider was refused, as its log line says it for the integrating developer. */
export interface PageRefusal {
  readonly reason: string;
  readonly description?: string;
}

/**
 * Sends a person's browser that a page of the provider (authorization, sign-out: `path` below the
 * mount) refuses to the SPA's error page, never JSON, with the reference of the one log line that
 * says why, as the provider's own refusals are (oidc/refusals.ts). `query` is what the page itself
 * tells the person, if anything.
 */
export function refuseToErrorPage(
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
  refusal: PageRefusal,
  query?: URLSearchParams,
) {
  request.log.warn(
    { reference: request.id, endpoint: protocolRoute(path) ?? null, ...refusal, answer: 'error_page' },
    'protocol request refused',
  );
  return toErrorPage(request, reply, query);
}

/**
 * Sends a person's browser to the SPA's error page under the reference of the request's log line
 * (written by the caller), with what the page itself says, if anything, in `query`.
 */
export function toErrorPage(request: FastifyRequest, reply: FastifyReply, query?: URLSearchParams) {
  const search = query === undefined ? '' : `?${query}`;
  return reply.code(303).header('cache-control', 'no-store').redirect(`/error/${request.id}${search}`);
}

/** What the SPA's error page is told of a refusal by the request limit: too many, wait `waitSeconds`. */
export function rateLimitedPageQuery(waitSeconds: number): URLSearchParams {
  return new URLSearchParams({
    [ERROR_REASON_PARAM]: RATE_LIMITED_REASON,
    [WAIT_PARAM]: String(waitSeconds),
  });
}
