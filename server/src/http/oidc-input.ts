import { IncomingMessage } from 'node:http';
import * as querystring from 'node:querystring';
import { BAD_CHARACTER_MESSAGE } from '@keycard/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badCharacterPath } from '../errors/bad-characters.ts';
import { isPersonFacing } from '../oidc/outage.ts';
import { OIDC_MOUNT } from '../oidc/provider.ts';
import { pathOf } from './paths.ts';
import { refuseToErrorPage } from './protocol-error-page.ts';
import { withForwardingAsDecided } from './trusted-proxies.ts';

const FORM = 'application/x-www-form-urlencoded';

/** The charset a form names, which the provider decodes the body with (selective_body.js); none: UTF-8. */
function charsetOf(request: FastifyRequest): string | undefined {
  return /;\s*charset="?([^";]+)"?/i.exec(request.headers['content-type'] ?? '')?.[1];
}

/** The form's parameters as the provider will read them, or undefined when it will refuse the body itself. */
export function formOf(request: FastifyRequest): querystring.ParsedUrlQuery | undefined {
  if (!Buffer.isBuffer(request.body)) return undefined;
  const charset = charsetOf(request);
  try {
    const text =
      charset === undefined ? request.body.toString() : new TextDecoder(charset).decode(request.body);
    return querystring.parse(text);
  } catch {
    return undefined;
  }
}

/** The query as the provider reads it (Koa's querystring.parse). */
function queryOf(request: FastifyRequest): querystring.ParsedUrlQuery {
  const start = request.url.indexOf('?');
  return start === -1 ? {} : querystring.parse(request.url.slice(start + 1));
}

/**
 * A protocol error as the provider words them (RFC 6749 §5.2): the parameter named, its value never
 * echoed. On a page a person's browser is sent to (authorization, sign-out) it is the SPA's error
 * page instead, as the provider shows its own refusals there, with the reference of the log line
 * that names the parameter for the integrating developer.
 */
function refuse(request: FastifyRequest, reply: FastifyReply, path: readonly PropertyKey[]) {
  const description = `${String(path[0])} ${BAD_CHARACTER_MESSAGE}`;
  const endpoint = pathOf(request.url).slice(OIDC_MOUNT.length);
  if (isPersonFacing(endpoint)) {
    return refuseToErrorPage(request, reply, endpoint, { reason: 'invalid_request', description });
  }
  return reply
    .code(400)
    .header('cache-control', 'no-store')
    .send({ error: 'invalid_request', error_description: description });
}

/**
 * DESIGN §2 Bad input on the protocol endpoints: a control character or an unpaired surrogate in any
 * query or form parameter of /oidc (authorization, token, end-session, introspection …) is refused
 * with the OAuth `invalid_request` (a person's page: the error page), before the provider or its
 * storage sees it. The provider parses its
 * forms itself, so the form is read here once and handed on unread (`forProvider`).
 */
export function guardProtocolInput(scope: FastifyInstance): void {
  scope.addContentTypeParser(FORM, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  scope.addHook('preHandler', async (request, reply) => {
    const path = badCharacterPath(queryOf(request)) ?? badCharacterPath(formOf(request));
    if (path) return refuse(request, reply, path);
  });
}

/**
 * The request to hand the provider: the original while its body is unread, else a copy whose body is
 * the form read by guardProtocolInput, so the provider parses the very bytes that were checked. A
 * provider that reads X-Forwarded-* (`proxy`) gets only the client, host and scheme Fastify took from
 * them, so it builds its URLs on the host the allowed-hosts check passed and sees the address the
 * per-IP limits counted. One that does not read them needs nothing changed.
 */
export function forProvider(request: FastifyRequest, proxy: boolean): IncomingMessage {
  const { raw, body } = request;
  if (proxy) raw.headers = withForwardingAsDecided(request);
  if (!Buffer.isBuffer(body)) return raw;
  const copy = new IncomingMessage(raw.socket);
  copy.headers = raw.headers;
  copy.rawHeaders = raw.rawHeaders;
  copy.method = raw.method;
  copy.url = raw.url;
  copy.httpVersion = raw.httpVersion;
  copy.httpVersionMajor = raw.httpVersionMajor;
  copy.httpVersionMinor = raw.httpVersionMinor;
  copy.push(body);
  copy.push(null);
  // Complete like the original: a copy destroyed before it is read must not take the socket with it.
  copy.complete = true;
  return copy;
}
