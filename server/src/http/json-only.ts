import type { FastifyInstance } from 'fastify';

/** An API scope accepts JSON bodies only: anything else is 415, never a string the schema reads. */
export function acceptJsonOnly(api: FastifyInstance): void {
  api.removeAllContentTypeParsers();
  api.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    api.getDefaultJsonParser('error', 'error'),
  );
}
