import { type Language, languageFor } from '@keycard/contract';
import type { FastifyRequest } from 'fastify';

/** The request's language for mail to an account without one: the first Accept-Language tag. */
export function requestLanguage(request: FastifyRequest): Language {
  return languageFor(request.headers['accept-language']?.split(',')[0]);
}
