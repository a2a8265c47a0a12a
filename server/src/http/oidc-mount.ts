import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { OIDC_MOUNT } from '../oidc/provider.ts';
import type { ProviderSource } from '../oidc/provider-source.ts';
import { forProvider, guardProtocolInput } from './oidc-input.ts';

/**
 * Mounts the OpenID Connect provider under /oidc inside Fastify, so the root scope's hooks (security
 * headers, rate limits) run for protocol endpoints too. The provider stays the protocol engine: it
 * reads its own request bodies and writes its own answers. Each request goes to the source's current
 * provider (rebuilt when the signing keys change); finding it may fail like any database read, before
 * the reply is handed over, so the one error handler answers.
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
    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      const callback = callbackOf(await source.current());
      reply.hijack();
      const raw = forProvider(request) as IncomingMessage & { originalUrl?: string };
      // The provider routes on the path below its mount and derives the mount from originalUrl.
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '/').slice(OIDC_MOUNT.length) || '/';
      void callback(raw, reply.raw);
    };
    scope.all(OIDC_MOUNT, handle);
    scope.all(`${OIDC_MOUNT}/*`, handle);
  });
}
