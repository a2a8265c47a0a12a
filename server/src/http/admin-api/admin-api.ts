import { ADMIN_API_BASE } from '@keycard/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Config } from '../../config.ts';
import type { Mailer } from '../../mail/mail-service.ts';
import type { AdminDeps } from '../../provisioning/admin-deps.ts';
import { adminMailing } from '../../provisioning/admin-mailing.ts';
import type { Db } from '../../store/database.ts';
import { toHttpError } from '../error-handler.ts';
import { HttpError } from '../http-error.ts';
import { acceptJsonOnly } from '../json-only.ts';
import { AdminAuthError, type AdminCaller, authenticateAdmin } from './admin-token.ts';
import { clientRoutes } from './client-routes.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { providerRoutes } from './provider-routes.ts';
import { userRoutes } from './user-routes.ts';

export interface AdminApiDeps {
  readonly config: Config;
  readonly db: Db;
  /** Issues the client-credentials tokens this API accepts. */
  readonly provider: Provider;
  /** The service's outbox; its nudge wakes the worker after an operation queued mail. */
  readonly mail: Pick<Mailer, 'nudge'>;
}

/**
 * The admin HTTP API (DESIGN §1 Provisioning), registered under ADMIN_API_BASE. JSON only, no
 * cookies and so no CSRF check: every call but the OpenAPI document needs a client-credentials token
 * with the admin scope (admin-token.ts). The rate limit registered before it applies here too.
 */
export async function registerAdminApi(app: FastifyInstance, deps: AdminApiDeps): Promise<void> {
  await app.register(async (scope) => adminApi(scope, deps), { prefix: ADMIN_API_BASE });
}

async function adminApi(scope: FastifyInstance, deps: AdminApiDeps): Promise<void> {
  acceptJsonOnly(scope, { emptyBodyIsNone: true });
  // The admin operations' closed set names a bad value invalid_input; malformed JSON and bad
  // parameters become the same. The root handler (error-handler.ts) then answers the body.
  scope.setErrorHandler((error, _request, reply) => {
    if (error instanceof AdminAuthError) {
      // RFC 6750 §3: a refused token is answered with its challenge.
      reply.header('www-authenticate', error.challenge);
      throw error;
    }
    const answer = toHttpError(error);
    if (answer.code !== 'bad_request') throw error;
    throw new HttpError('invalid_input', answer.message, answer.field);
  });
  scope.setNotFoundHandler(() => {
    throw new HttpError('not_found', 'Not found.');
  });
  scope.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  const openApi = buildOpenApiDocument(deps.config.publicUrl);
  scope.get('/openapi.json', async () => openApi);

  const mailing = adminMailing(deps.config, () => deps.mail.nudge());
  const callers = new WeakMap<FastifyRequest, AdminCaller>();
  const depsOf = (request: FastifyRequest): AdminDeps => {
    const caller = callers.get(request);
    // The onRequest hook below ran for every route of this scope; no caller means a wiring bug.
    if (!caller) throw new Error('admin API request without an authenticated caller');
    return { db: deps.db, mailing, actor: caller.clientId };
  };
  await scope.register(async (secured) => {
    secured.addHook('onRequest', async (request) => {
      callers.set(request, await authenticateAdmin(deps.provider, deps.db, request.headers.authorization));
    });
    userRoutes(secured, depsOf);
    clientRoutes(secured, depsOf);
    providerRoutes(secured, depsOf);
  });
}
