import { postCalls } from '@keycard/contract';
import { NotFoundError, ServiceError } from '../../errors/service-error.ts';
import { finishLogout } from '../../oidc/logout.ts';
import { postCall } from '../contract-call.ts';
import type { RouteModule } from '../route-module.ts';

/**
 * SPEC §7 /api/Logout: ends the session the relying party asked to end (RP-initiated logout). Like
 * every POST of the API it needs the anti-forgery token and a same-site caller (http/csrf.ts), so only
 * the SPA's own page, and for a request without a valid hint only the person's confirmation, ends it.
 */
export const logoutRoutes: RouteModule = (api, deps) => {
  postCall(api, postCalls.logout, async (body, request) => {
    const outcome = await finishLogout(deps.db, body, request.ip, deps.logouts);
    if (outcome === 'unknown') throw new NotFoundError('This sign-out request is unknown or has expired.');
    if (outcome === 'unconfirmed') {
      throw new ServiceError('confirmation_required', 'Confirm the sign-out to end the session.');
    }
    return outcome;
  });
};
