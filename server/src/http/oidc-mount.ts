import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { isPersonFacing, OUTAGE_BODY, unavailablePage } from '../oidc/outage.ts';
import { OIDC_MOUNT } from '../oidc/provider.ts';
import type { ProviderSource } from '../oidc/provider-source.ts';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../store/unavailable.ts';
import { answerFormNavigations } from './oidc-form-navigation.ts';
import { forProvider, guardProtocolInput } from './oidc-input.ts';

/** A protocol request the database could not serve: the outage page for a person, else a 503. */
function answerOutage(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  request.log.warn({ err: error }, 'protocol request met a database outage');
  const path = (request.url.split('?')[0] ?? '').slice(OIDC_MOUNT.length);
  if (isPersonFacing(path)) return reply.code(303).redirect(unavailablePage(request.id));
  return reply
    .code(503)
    .header('retry-after', String(RETRY_AFTER_SECONDS))
    .header('cache-control', 'no-store')
    .send(OUTAGE_BODY);
}

/**
 * Mounts the OpenID Connect provider under /oidc inside Fastify, so the root scope's hooks (security
 * headers, rate limits) run for protocol endpoints too. The provider stays the protocol engine: it
 * reads its own request bodies and writes its own answers. Each request goes to the source's current
 * provider (rebuilt when the signing keys change); finding it reads the database (its clock, the
 * keys). An outage there is answered in the protocol's terms, as the provider answers one it meets
 * (oidc/outage.ts); any other failure goes to the one error handler.
 */
export async function mountProvider(app: FastifyInstance, source: ProviderSource): Promise<void> {
  const callbacks = new WeakMap<Provider, ReturnType<Provider['callback']>>();
  const callbackOf = (provider: Provider) => {
    const callback = callbacks.get(provider) ?? provider.callback();
    callbacks.set(provider, callback);
    return callback;
  };
  await app.register(async (scope) => {
    // Leave other bodies unread: the provider parses them itself. Forms are read once, checked for
    // bad characters and handed on (oidc-input.ts).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    guardProtocolInput(scope);
    answerFormNavigations(scope);
    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      let provider: Provider;
      try {
        provider = await source.current();
      } catch (error) {
        if (isDatabaseUnavailable(error)) return answerOutage(request, reply, error);
        throw error;
      }
      const callback = callbackOf(provider);
      reply.hijack();
      const raw = forProvider(request, provider.proxy) as IncomingMessage & { originalUrl?: string };
      // The provider routes on the path below its mount and derives the mount from originalUrl.
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '/').slice(OIDC_MOUNT.length) || '/';
      void callback(raw, reply.raw);
    };
    scope.all(OIDC_MOUNT, handle);
    scope.all(`${OIDC_MOUNT}/*`, handle);
  });
}
