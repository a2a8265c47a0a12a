import { ADMIN_API_BASE } from '@keycard/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Config } from '../../config.ts';
import { NotFoundError } from '../../errors/service-error.ts';
import type { Mailer } from '../../mail/mail-service.ts';
import type { ClientCache } from '../../oidc/client-cache.ts';
import { signingKeySettings } from '../../oidc/keys.ts';
import type { ProvisioningDeps } from '../../provisioning/provisioning-deps.ts';
import { provisioningMailing } from '../../provisioning/provisioning-mailing.ts';
import type { Clock } from '../../store/clock.ts';
import type { Db } from '../../store/database.ts';
import { acceptJsonOnly } from '../json-only.ts';
import { type AdminCaller, authenticateAdmin } from './admin-token.ts';
import { clientRoutes } from './client-routes.ts';
import { keyRoutes } from './key-routes.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { providerRoutes } from './provider-routes.ts';
import { resourceRoutes } from './resource-routes.ts';
import { userRoutes } from './user-routes.ts';

export interface AdminApiDeps {
  readonly config: Config;
  readonly db: Db;
  /** Issues the client-credentials tokens this API accepts. */
  readonly provider: Provider;
  /** The service's outbox; its nudge wakes the worker after an operation queued mail. */
  readonly mail: Pick<Mailer, 'nudge'>;
  /** The service's one clock: a rotation's times are measured on it, as the provider reads them. */
  readonly clock: Clock;
  /** The provider's cached client registrations: a change made here is forgotten once committed. */
  readonly clientCache?: ClientCache | undefined;
}

/**
 * The admin HTTP API (DESIGN §1 Provisioning), registered under ADMIN_API_BASE. JSON only, no
 * cookies and so no CSRF check: every call but the OpenAPI document needs a client-credentials token
 * with the admin scope (admin-token.ts). The rate limit registered before it applies here too.
 */
export async function registerAdminApi(app: FastifyInstance, deps: AdminApiDeps): Promise<void> {
  await app.register(async (scope) => adminApi(scope, deps), { prefix: ADMIN_API_BASE });
}

/** The caller's User-Agent for the audit row, cut to a length a log reader needs. */
function userAgentOf(request: FastifyRequest): string | null {
  const agent = request.headers['user-agent'];
  return agent === undefined || agent === '' ? null : agent.slice(0, 256);
}

async function adminApi(scope: FastifyInstance, deps: AdminApiDeps): Promise<void> {
  // Errors, a refused token's challenge among them, are answered by the root handler
  // (error-handler.ts), which names a bad value invalid_input under this prefix.
  acceptJsonOnly(scope, { emptyBodyIsNone: true });
  scope.setNotFoundHandler(() => {
    throw new NotFoundError('Not found.');
  });
  scope.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  const openApi = buildOpenApiDocument(deps.config.publicUrl);
  scope.get('/openapi.json', async () => openApi);

  const mailing = provisioningMailing(deps.config, () => deps.mail.nudge());
  const signingKeys = signingKeySettings(deps.config);
  const callers = new WeakMap<FastifyRequest, AdminCaller>();
  const depsOf = (request: FastifyRequest): ProvisioningDeps => {
    const caller = callers.get(request);
    // The onRequest hook below ran for every route of this scope; no caller means a wiring bug.
    if (!caller) throw new Error('admin API request without an authenticated caller');
    const origin = { address: request.ip, userAgent: userAgentOf(request) };
    return {
      db: deps.db,
      clock: deps.clock,
      mailing,
      signingKeys,
      configuredResources: deps.config.resourceServers,
      actor: caller.clientId,
      origin,
      passwordMinScore: deps.config.passwordMinScore,
      clientCache: deps.clientCache,
    };
  };
  await scope.register(async (secured) => {
    secured.addHook('onRequest', async (request) => {
      callers.set(request, await authenticateAdmin(deps.provider, deps.db, request.headers.authorization));
    });
    userRoutes(secured, depsOf);
    clientRoutes(secured, depsOf);
    providerRoutes(secured, depsOf);
    keyRoutes(secured, depsOf);
    resourceRoutes(secured, depsOf);
  });
}
