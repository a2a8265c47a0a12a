import { getCalls } from '@keycard/contract';
import { redirectOrDefault } from '../../recovery/redirect-targets.ts';
import { isDatabaseUnavailable } from '../../store/unavailable.ts';
import { answerNavigationError } from '../navigation-errors.ts';
import type { RouteModule } from '../route-module.ts';

/**
 * The SPA's links to an application (DESIGN §2 Redirect rules): the RedirectUrl of a link the person
 * followed is any text a stranger could have written, and only the service knows which origins are
 * allowed. So the error, locked, expired-link, forgot-password and unlock pages link here, and the
 * service sends the browser on to the RedirectUrl when its origin is registered for a client or
 * configured, else to DEFAULT_REDIRECT_URL (issue 16: the error page's last way back), a setting the
 * SPA never sees. This is a navigation, and an error answer would leave the person on a blank page:
 * a query the contract refuses goes to the default, and so does a RedirectUrl while the allow-list
 * cannot be read (the database is away, as when the error page says the service is unavailable).
 * Without a RedirectUrl the database is not asked at all. Anything else that fails on the way (the
 * request limit, a defect) ends on the error page (navigation-errors.ts).
 */
export const defaultRedirectRoutes: RouteModule = (api, deps) => {
  const fallback = deps.config.defaultRedirectUrl;
  api.get(getCalls.defaultRedirect.path, { errorHandler: answerNavigationError }, async (request, reply) => {
    const parsed = getCalls.defaultRedirect.query.safeParse(request.query);
    const redirectUrl = parsed.success ? parsed.data.RedirectUrl : undefined;
    // Stryker disable next-line ConditionalExpression: without it the allow-list is read for nothing and, the database away, the catch below gives the same default; the check spares the read
    if (!redirectUrl) return reply.redirect(fallback, 303);
    const target = await redirectOrDefault(deps.recovery, redirectUrl).catch((error: unknown) => {
      if (isDatabaseUnavailable(error)) return fallback;
      throw error;
    });
    return reply.redirect(target, 303);
  });
};
