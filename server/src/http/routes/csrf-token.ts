import { getCalls } from '@keycard/contract';
import type { RouteModule } from '../route-module.ts';

/**
 * SPEC §7 GET /api/getcsrftoken: sets the secret cookie (first call) and answers a token as the
 * plain-text body; the SPA sends it as X-CSRF-TOKEN on every later call.
 */
export const csrfTokenRoutes: RouteModule = (api) => {
  api.get(getCalls.getCsrfToken.path, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send(reply.generateCsrf()),
  );
};
