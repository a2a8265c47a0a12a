import type { FastifyInstance } from 'fastify';

export interface JsonOnlyOptions {
  /**
   * An empty body under `Content-Type: application/json` counts as no body (the admin API: HTTP
   * clients often send the header on every call, also on actions that take none). A call whose
   * schema needs a body still refuses it, naming the missing field.
   */
  readonly emptyBodyIsNone?: boolean;
}

/** An API scope accepts JSON bodies only: anything else is 415, never a string the schema reads. */
export function acceptJsonOnly(api: FastifyInstance, options: JsonOnlyOptions = {}): void {
  api.removeAllContentTypeParsers();
  const parseJson = api.getDefaultJsonParser('error', 'error');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (options.emptyBodyIsNone && text === '') return done(null, undefined);
    return parseJson(request, text, done);
  });
}
