import { getCalls } from '@keycard/contract';
import type { RouteModule } from '../route-module.ts';

/**
 * The error page's last way back (issue 16): when neither a sign-in nor an application is known, the
 * SPA links here and the service sends the browser on to DEFAULT_REDIRECT_URL, a setting the SPA
 * never sees. The target is the configured one only, whatever the query holds: no open redirect.
 */
export const defaultRedirectRoutes: RouteModule = (api, deps) => {
  api.get(getCalls.defaultRedirect.path, async (_request, reply) =>
    reply.redirect(deps.config.defaultRedirectUrl, 303),
  );
};
