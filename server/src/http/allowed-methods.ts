import type { FastifyInstance, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { ServiceError } from '../errors/service-error.ts';
import { isDevMailboxPath } from '../mail/dev-mailbox/mailbox-routes.ts';
import { protocolMethods } from '../oidc/protocol-routes.ts';
import { OIDC_MOUNT } from '../oidc/provider.ts';
import { isAdminApiPath, isApiPath, isHealthPath, isOidcPath, pathOf } from './paths.ts';

/** The methods a path's routes are looked up for; no route here takes TRACE or CONNECT. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
type Method = (typeof METHODS)[number];

function isMethod(value: string): value is Method {
  return (METHODS as readonly string[]).includes(value);
}

/** Pages are the SPA's: GET (and HEAD) of any path outside the service's own prefixes. */
function isPagePath(path: string): boolean {
  return (
    !isApiPath(path) &&
    !isAdminApiPath(path) &&
    !isOidcPath(path) &&
    !isDevMailboxPath(path) &&
    !isHealthPath(path)
  );
}

function withHead(methods: readonly string[]): readonly string[] {
  return methods.includes('GET') && !methods.includes('HEAD') ? [...methods, 'HEAD'] : methods;
}

/** Thrown with the `Allow` header the reply must carry. */
class MethodNotAllowedError extends ServiceError {
  override readonly headers: Readonly<Record<string, string>>;

  constructor(allowed: readonly string[]) {
    super('method_not_allowed', `Method not allowed; use ${allowed.join(', ')}.`);
    this.headers = { allow: allowed.join(', ') };
  }
}

/**
 * RFC 9110 §15.5.6: a method the resource does not support answers 405 with `Allow` listing those it
 * does, instead of 404 (or the CSRF check's 403 for a TRACE to the API). Runs right after the Host
 * check, before every other request hook, so nothing else looks at such a request. Known resources: every route registered after this
 * call (its methods, path parameters matched as Fastify matches them), the provider's endpoints
 * (oidc/protocol-routes.ts), and the SPA's pages (GET and HEAD). An unknown path stays a 404.
 */
export function registerAllowedMethods(app: FastifyInstance): void {
  const routes = FindMyWay();
  app.addHook('onRoute', (route) => {
    // Wildcards (the SPA's files, the provider's mount) are handled by path below.
    if (route.url.includes('*')) return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter(isMethod);
    for (const method of methods) {
      if (!routes.hasRoute(method, route.url)) routes.on(method, route.url, () => undefined);
    }
  });

  const allowedOn = (request: FastifyRequest, path: string): readonly string[] | undefined => {
    // The provider is mounted case-sensitively (like every route); under it, it routes by itself.
    if (path.startsWith(`${OIDC_MOUNT}/`)) return protocolMethods(path.slice(OIDC_MOUNT.length));
    // A route of its own takes the request; the SPA's files' wildcard (GET and HEAD of any path) is none.
    if (!request.is404 && !(request.routeOptions.url ?? '').includes('*')) return undefined;
    const registered = METHODS.filter((method) => routes.find(method, path) !== null);
    if (registered.length > 0) return withHead(registered);
    return isPagePath(path) ? ['GET', 'HEAD'] : undefined;
  };

  app.addHook('onRequest', (request, _reply, done) => {
    const path = pathOf(request.url);
    const allowed = allowedOn(request, path);
    if (allowed !== undefined && !allowed.includes(request.method))
      return done(new MethodNotAllowedError(allowed));
    done();
  });
}
