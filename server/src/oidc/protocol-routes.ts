/**
 * The provider's endpoints below OIDC_MOUNT and the methods it answers on each, for the features
 * provider.ts enables (authorization and resume, userinfo, token, JWKS, discovery, revocation,
 * introspection, pushed authorization requests, RP-initiated logout; no dynamic registration or device
 * flow). A form POST to /auth or /session/end is turned into a GET (http/oidc-form-navigation.ts). The
 * provider routes case-insensitively and ignores one trailing slash; so do these. OPTIONS is the
 * provider's own CORS preflight on the endpoints a browser client may call.
 * `server/test/allowed-methods.test.ts` checks the table against the provider's discovery document
 * and every listed method against the provider itself.
 */
const ROUTES: readonly (readonly [path: string, methods: readonly string[]])[] = [
  ['/auth', ['GET', 'HEAD', 'POST']],
  ['/auth/:uid', ['GET', 'HEAD']],
  ['/me', ['GET', 'HEAD', 'POST', 'OPTIONS']],
  ['/token', ['POST', 'OPTIONS']],
  ['/jwks', ['GET', 'HEAD', 'OPTIONS']],
  ['/.well-known/openid-configuration', ['GET', 'HEAD', 'OPTIONS']],
  ['/.well-known/oauth-authorization-server', ['GET', 'HEAD', 'OPTIONS']],
  ['/token/revocation', ['POST', 'OPTIONS']],
  ['/token/introspection', ['POST', 'OPTIONS']],
  // RFC 9126 pushed authorization requests: on by default in the provider.
  ['/request', ['POST', 'OPTIONS']],
  ['/session/end', ['GET', 'HEAD', 'POST']],
  ['/session/end/confirm', ['POST']],
  ['/session/end/success', ['GET', 'HEAD']],
];

function patternOf(path: string): RegExp {
  const segments = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}/?$`, 'i');
}

const PATTERNS = ROUTES.map(([path, methods]) => ({ path, pattern: patternOf(path), methods }));

/** The provider's endpoints as listed above, e.g. to check the table. */
export const PROTOCOL_ROUTES: readonly { readonly path: string; readonly methods: readonly string[] }[] =
  PATTERNS.map(({ path, methods }) => ({ path, methods }));

/** The methods the provider answers on `path` (below its mount), or undefined for no endpoint of it. */
export function protocolMethods(path: string): readonly string[] | undefined {
  return PATTERNS.find(({ pattern }) => pattern.test(path))?.methods;
}

/** The endpoint `path` (below the mount) reaches, as listed above (`/auth/:uid`), or undefined. */
export function protocolRoute(path: string): string | undefined {
  return PATTERNS.find(({ pattern }) => pattern.test(path))?.path;
}
