import { postCalls } from '@keycard/contract';
import { NotFoundError } from '../../errors/service-error.ts';
import { finishLogout } from '../../oidc/logout.ts';
import { postCall } from '../contract-call.ts';
import type { RouteModule } from '../route-module.ts';

/** SPEC §7 /api/Logout: ends the session the relying party asked to end (RP-initiated logout). */
export const logoutRoutes: RouteModule = (api, deps) => {
  postCall(api, postCalls.logout, async (body, request) => {
    const outcome = await finishLogout(deps.db, body.logoutId, request.ip, deps.logouts);
    if (!outcome) throw new NotFoundError('This sign-out request is unknown or has expired.');
    return outcome;
  });
};
