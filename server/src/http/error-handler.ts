import type { FastifyError, FastifyInstance } from 'fastify';
import { isDatabaseUnavailable } from '../store/unavailable.ts';
import { HttpError } from './http-error.ts';

/** Fastify's and its plugins' error codes mapped onto the contract's closed set (STYLE §2). */
const KNOWN_ERRORS: Readonly<Record<string, () => HttpError>> = {
  FST_CSRF_MISSING_SECRET: () => new HttpError('csrf_rejected', 'Missing or invalid anti-forgery token.'),
  FST_CSRF_INVALID_TOKEN: () => new HttpError('csrf_rejected', 'Missing or invalid anti-forgery token.'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new HttpError('payload_too_large', 'The request body is too large.'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new HttpError('unsupported_media_type', 'The request body must be application/json.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new HttpError('bad_request', 'The request body is empty.', 'body'),
  FST_ERR_CTP_INVALID_JSON_BODY: () =>
    new HttpError('bad_request', 'The request body is not valid JSON.', 'body'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new HttpError('bad_request', 'The request body does not match its Content-Length.', 'body'),
};

function asFastifyError(error: unknown): Partial<FastifyError> {
  return typeof error === 'object' && error !== null ? (error as Partial<FastifyError>) : {};
}

/** Any thrown value as the HttpError the client sees. Never carries an internal message or stack. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const { code, statusCode } = asFastifyError(error);
  if (isDatabaseUnavailable(error) || statusCode === 503) {
    return new HttpError('service_unavailable', 'The service is temporarily unavailable. Try again shortly.');
  }
  const known = code === undefined ? undefined : KNOWN_ERRORS[code];
  if (known) return known();
  // The JSON parser reports syntax errors as a plain SyntaxError with status 400.
  if (error instanceof SyntaxError && statusCode === 400) {
    return new HttpError('bad_request', 'The request body is not valid JSON.', 'body');
  }
  if (statusCode === 404) return new HttpError('not_found', 'Not found.');
  if (statusCode === 405) return new HttpError('method_not_allowed', 'Method not allowed.');
  if (statusCode === 429) return new HttpError('rate_limited', 'Too many requests. Try again later.');
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return new HttpError('bad_request', 'The request is malformed.');
  }
  return new HttpError('internal_error', 'Something went wrong on our side.');
}

/**
 * The one error handler (fastify/demo style): every error answers `{ code, message, field? }`;
 * 5xx are logged with their cause and answered without it, so no stack or internal text leaks.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const answer = toHttpError(error);
    if (answer.statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      if (answer.code === 'service_unavailable') reply.header('retry-after', '5');
    } else if (!(error instanceof HttpError)) {
      request.log.info({ code: answer.code, reason: asFastifyError(error).message }, 'request refused');
    }
    return reply.code(answer.statusCode).type('application/json; charset=utf-8').send(answer.toBody());
  });
}
