import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { OIDC_MOUNT } from '../oidc/provider.ts';

/**
 * Mounts the OpenID Connect provider under /oidc inside Fastify, so the root scope's hooks (security
 * headers, rate limits) run for protocol endpoints too. The provider stays the protocol engine: it
 * reads its own request bodies and writes its own answers.
 */
export async function mountProvider(app: FastifyInstance, provider: Provider): Promise<void> {
  const callback = provider.callback();
  await app.register(async (scope) => {
    // Leave the body stream unread: the provider parses form posts (token endpoint) itself.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const handle = (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      // The provider routes on the path below its mount and derives the mount from originalUrl.
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '/').slice(OIDC_MOUNT.length) || '/';
      void callback(raw, reply.raw);
    };
    scope.all(OIDC_MOUNT, handle);
    scope.all(`${OIDC_MOUNT}/*`, handle);
  });
}
