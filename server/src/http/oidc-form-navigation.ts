import * as querystring from 'node:querystring';
import type { FastifyInstance } from 'fastify';
import { protocolRoute } from '../oidc/protocol-routes.ts';
import { OIDC_MOUNT } from '../oidc/provider.ts';
import { formOf } from './oidc-input.ts';
import { pathOf } from './paths.ts';

/**
 * The endpoints a relying party may send the browser to with a form POST as well as a GET (OpenID
 * Connect Core §3.1.2.1, RP-Initiated Logout 1.0 §2).
 */
const NAVIGATIONS: ReadonlySet<string> = new Set(['/auth', '/session/end']);

/**
 * The longest address such a POST is turned into. 8 KiB is what proxies and browsers commonly take
 * whole, well inside the 16 KiB of request head Node accepts.
 */
export const MAX_NAVIGATION_URL_LENGTH = 8192;

/**
 * A form POST to the authorization or end-session endpoint is answered with a 303 to the same endpoint
 * with the same parameters as a GET. The browser's cookies are SameSite=Lax (DESIGN §2), so a POST
 * from a relying party's page, being cross-site, carries none: the provider would not see the
 * person's session (no single sign-on, `prompt=none` refused with login_required, a sign-out of
 * nobody), which is why it takes no POST there itself. The GET the browser then makes is a top-level
 * navigation, which carries them, and meets the same checks as any GET (the end-session screening
 * among them). A POST that is no form, or a form too long for an address, ends on the error page with
 * its reference, and the log says why. Runs after the input guard (oidc-input.ts), so a form it
 * refuses is never passed on.
 */
export function answerFormNavigations(scope: FastifyInstance): void {
  scope.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST') return;
    const path = pathOf(request.url).slice(OIDC_MOUNT.length);
    const endpoint = protocolRoute(path);
    if (endpoint === undefined || !NAVIGATIONS.has(endpoint)) return;
    const form = formOf(request);
    const target = form === undefined ? null : `${OIDC_MOUNT}${path}?${querystring.stringify(form)}`;
    reply.code(303).header('cache-control', 'no-store');
    if (target !== null && target.length <= MAX_NAVIGATION_URL_LENGTH) return reply.redirect(target);
    request.log.warn(
      { reference: request.id, endpoint, reason: target === null ? 'not_a_form' : 'too_long' },
      target === null
        ? 'a POST to a protocol page must be an application/x-www-form-urlencoded form'
        : `a form POST to a protocol page must fit an address of ${MAX_NAVIGATION_URL_LENGTH} characters; send a long authorization request as a pushed one (request_uri)`,
    );
    return reply.redirect(`/error/${request.id}`);
  });
}
