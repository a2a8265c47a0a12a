import type { ErrorCode } from '@keycard/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors/service-error.ts';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../store/unavailable.ts';
import { isAdminApiPath, isOidcPath } from './paths.ts';
import { answerLimitedProtocolRequest } from './protocol-limit.ts';
import { RequestLimitError } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Every code the route's contract entry lets it answer (answerableErrors); set by postCall and adminCall. */
    errors?: readonly ErrorCode[];
  }
}

/** Fastify's and its plugins' error codes mapped onto the contract's closed set (STYLE §2). */
const KNOWN_ERRORS: Readonly<Record<string, () => ServiceError>> = {
  FST_CSRF_MISSING_SECRET: () => new ServiceError('csrf_rejected', 'Missing or invalid anti-forgery token.'),
  FST_CSRF_INVALID_TOKEN: () => new ServiceError('csrf_rejected', 'Missing or invalid anti-forgery token.'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ServiceError('payload_too_large', 'The request body is too large.'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new ServiceError('unsupported_media_type', 'The request body must be application/json.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new ServiceError('bad_request', 'The request body is empty.', 'body'),
  FST_ERR_CTP_INVALID_JSON_BODY: () =>
    new ServiceError('bad_request', 'The request body is not valid JSON.', 'body'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new ServiceError('bad_request', 'The request body does not match its Content-Length.', 'body'),
};

function asFastifyError(error: unknown): Partial<FastifyError> {
  return typeof error === 'object' && error !== null ? (error as Partial<FastifyError>) : {};
}

/** Any thrown value as the ServiceError the client sees. Never carries an internal message or stack. */
export function toHttpError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  const { code, statusCode } = asFastifyError(error);
  if (isDatabaseUnavailable(error) || statusCode === 503) {
    return new ServiceError(
      'service_unavailable',
      'The service is temporarily unavailable. Try again shortly.',
    );
  }
  const known = code === undefined ? undefined : KNOWN_ERRORS[code];
  if (known) return known();
  // The JSON parser reports syntax errors as a plain SyntaxError with status 400.
  if (error instanceof SyntaxError && statusCode === 400) {
    return new ServiceError('bad_request', 'The request body is not valid JSON.', 'body');
  }
  if (statusCode === 404) return new ServiceError('not_found', 'Not found.');
  if (statusCode === 405) return new ServiceError('method_not_allowed', 'Method not allowed.');
  if (statusCode === 429) return new ServiceError('rate_limited', 'Too many requests. Try again later.');
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return new ServiceError('bad_request', 'The request is malformed.');
  }
  return new ServiceError('internal_error', 'Something went wrong on our side.');
}

/** The two doors that answer error bodies: the calls of SPEC §7 and the admin API. */
export type Door = 'api' | 'admin';

/** A refused value is the SPA's bad_request and the admin API's invalid_input (it names the field). */
function inDoorTerms(answer: ServiceError, door: Door): ServiceError {
  const input = door === 'api' ? 'bad_request' : 'invalid_input';
  if (answer.code !== 'bad_request' && answer.code !== 'invalid_input') return answer;
  return answer.code === input ? answer : new ServiceError(input, answer.message, answer.field);
}

const UNDECLARED = () => new ServiceError('internal_error', 'Something went wrong on our side.');

/**
 * What a request answers for `error`: its code in the door's terms, checked against the codes the
 * route's contract entry declares (`declared`, absent for routes without one). A code the contract
 * does not declare is a bug, answered as internal_error rather than in a shape the caller's types
 * do not describe; `undeclared` tells the handler to log it.
 */
export function answerFor(
  error: unknown,
  door: Door,
  declared?: readonly ErrorCode[],
): { answer: ServiceError; undeclared?: ErrorCode } {
  const answer = inDoorTerms(toHttpError(error), door);
  if (declared === undefined || declared.includes(answer.code)) return { answer };
  return { answer: UNDECLARED(), undeclared: answer.code };
}

function doorOf(request: FastifyRequest): Door {
  return isAdminApiPath(request.url) ? 'admin' : 'api';
}

/**
 * The one error handler (fastify/demo style): every error answers `{ code, message, field? }`, but
 * the request limit's refusal of a protocol request, answered in the protocol's terms
 * (protocol-limit.ts); 5xx are logged with their cause and answered without it, so no stack or
 * internal text leaks.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(answerError);
}

/** The one error handler's answer to `error` (installErrorHandler). */
export function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof RequestLimitError && isOidcPath(request.url)) {
    return answerLimitedProtocolRequest(request, reply, error);
  }
  const { answer, undeclared } = answerFor(error, doorOf(request), request.routeOptions.config?.errors);
  if (answer.statusCode >= 500) {
    const reason = undeclared === undefined ? 'request failed' : `undeclared error code ${undeclared}`;
    request.log.error({ err: error }, reason);
    if (answer.code === 'service_unavailable') reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  } else if (!(error instanceof ServiceError)) {
    request.log.info({ code: answer.code, reason: asFastifyError(error).message }, 'request refused');
  }
  reply.headers(answer.headers);
  return reply.code(answer.statusCode).type('application/json; charset=utf-8').send(answer.toBody());
}
