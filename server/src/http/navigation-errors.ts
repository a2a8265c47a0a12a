import type { FastifyReply, FastifyRequest } from 'fastify';
import { unavailablePageQuery } from '../oidc/outage.ts';
import { answerError, toHttpError } from './error-handler.ts';
import { rateLimitedPageQuery, toErrorPage } from './protocol-error-page.ts';
import { RequestLimitError } from './rate-limit.ts';

/** What the error page tells the person of an error, if anything (the reference is always there). */
function pageQuery(error: unknown, code: string): URLSearchParams | undefined {
  if (error instanceof RequestLimitError) return rateLimitedPageQuery(error.waitSeconds);
  if (code === 'service_unavailable') return unavailablePageQuery();
  return undefined;
}

/**
 * The error handler of the API's routes a person's browser navigates to (the upstream sign-in's start
 * and its callback, the error page's way back to an application), which answer with a redirect, never JSON: whatever fails on the way (the request
 * limit, a check of the request, the database, a defect) sends the browser to the SPA's error page
 * under the reference of the log line that says why. A failure of the service is logged as an error
 * with its cause, as the API's own handler logs it; a refusal of the request as information.
 */
export function answerNavigationError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const answer = toHttpError(error);
  // A name the service is not configured under (allowed-hosts.ts): 421 before any route, as on every
  // path; a redirect would send the browser on under that name.
  if (answer.code === 'misdirected_request') return answerError(error, request, reply);
  const fields = { reference: request.id, code: answer.code, answer: 'error_page' };
  if (answer.statusCode >= 500) request.log.error({ ...fields, err: error }, 'request failed');
  else request.log.info(fields, 'navigation refused');
  return toErrorPage(request, reply, pageQuery(error, answer.code));
}
