import { getCalls } from '@keycard/contract';
import { redirectOrDefault } from '../../recovery/redirect-targets.ts';
import type { RouteModule } from '../route-module.ts';

/**
 * The SPA's links to an application (DESIGN §2 Redirect rules): the RedirectUrl of a link the person
 * followed is any text a stranger could have written, and only the service knows which origins are
 * allowed. So the error, locked, expired-link, forgot-password and unlock pages link here, and the
 * service sends the browser on to the RedirectUrl when its origin is registered for a client or
 * configured, else to DEFAULT_REDIRECT_URL (issue 16: the error page's last way back), a setting the
 * SPA never sees. A query the contract refuses goes to the default too: this is a navigation, and an
 * error answer would leave the person on a blank page.
 */
export const defaultRedirectRoutes: RouteModule = (api, deps) => {
  api.get(getCalls.defaultRedirect.path, async (request, reply) => {
    const parsed = getCalls.defaultRedirect.query.safeParse(request.query);
    const target = parsed.success
      ? await redirectOrDefault(deps.recovery, parsed.data.RedirectUrl)
      : deps.config.defaultRedirectUrl;
    return reply.redirect(target, 303);
  });
};
