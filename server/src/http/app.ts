import { MAX_BODY_BYTES } from '@keycard/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { recordAudit } from '../audit/audit-log.ts';
import { databaseClock } from '../clock.ts';
import type { Config } from '../config.ts';
import { demoRoutes } from '../demo/demo-routes.ts';
import { ensureDemoClient } from '../demo/demo-setup.ts';
import { LANGUAGE_TEXTS, type LanguageTextSet, textResourceFor } from '../i18n/text-resource.ts';
import { loadProviderKeys } from '../oidc/keys.ts';
import { createProvider } from '../oidc/provider.ts';
import type { Db } from '../store/database.ts';
import { getOrCreateSecret } from '../store/secrets.ts';
import { registerCsrf } from './csrf.ts';
import { installErrorHandler } from './error-handler.ts';
import { HttpError } from './http-error.ts';
import { requestSerializers } from './log-serializers.ts';
import { mountProvider } from './oidc-mount.ts';
import { isApiPath, isOidcPath, pathOf } from './paths.ts';
import type { RouteDeps, RouteModule } from './route-module.ts';
import { apiRoutes } from './routes/index.ts';
import { registerSecurityHeaders } from './security-headers.ts';
import { DEFAULT_WEB_DIST, isBuildFilePath, registerSpa, sendSpaIndex } from './spa.ts';

export interface AppOptions {
  readonly config: Config;
  readonly db: Db;
  /** Localised texts; defaults to the shipped German and English texts. */
  readonly texts?: LanguageTextSet;
  /** Fastify/pino logger options; off when omitted (tests). URLs are always logged without codes. */
  readonly logger?: FastifyServerOptions['logger'];
  /** API route modules; defaults to every shipped module (routes/index.ts). */
  readonly routes?: readonly RouteModule[];
  /** The SPA build to serve; defaults to web/dist of this checkout. */
  readonly webDist?: string;
}

/** Name of the stored development cookie secret (used only when COOKIE_SECRETS is unset). */
export const DEV_COOKIE_SECRET = 'cookie-signing';

function withSafeSerializers(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...requestSerializers, ...options.serializers } };
}

/** The API scope accepts JSON bodies only: anything else is 415, never a string the schema reads. */
function acceptJsonOnly(api: FastifyInstance): void {
  api.removeAllContentTypeParsers();
  api.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    api.getDefaultJsonParser('error', 'error'),
  );
}

/** Builds the service (fastify/demo style: built here, started by main.ts, injected by tests). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const webDist = options.webDist ?? DEFAULT_WEB_DIST;
  // Development keeps a generated secret in the database so restarts keep CSRF cookies valid;
  // production must configure COOKIE_SECRETS (config.ts refuses to start otherwise).
  const cookieSecrets = config.cookieSecrets ?? [await getOrCreateSecret(db, DEV_COOKIE_SECRET)];
  const app = Fastify({
    logger: withSafeSerializers(options.logger),
    bodyLimit: MAX_BODY_BYTES,
    trustProxy: config.trustProxy,
  });
  installErrorHandler(app);
  await registerSecurityHeaders(app, config.publicUrl);
  await registerCsrf(app, { publicUrl: config.publicUrl, cookieSecrets });
  await registerSpa(app, webDist);

  const texts = options.texts ?? LANGUAGE_TEXTS;
  const provider = createProvider({ config, db, keys: await loadProviderKeys(config, db) });
  await mountProvider(app, provider);
  if (config.demo) {
    await ensureDemoClient(db, config.publicUrl);
    await app.register(async (scope) =>
      demoRoutes(scope, {
        publicUrl: config.publicUrl,
        textsFor: (language) => textResourceFor(texts, config.site, language),
      }),
    );
  }

  const deps: RouteDeps = {
    config,
    db,
    texts,
    provider,
    login: {
      db,
      clock: databaseClock(db),
      rules: {
        lockout: { threshold: config.lockoutThreshold, minutes: config.lockoutMinutes },
        passwordMaxAgeDays: config.passwordMaxAgeDays,
      },
      // The unlock mail is sent once the mail outbox exists; until then the lock is on record.
      onLocked: (tx, account) =>
        recordAudit(tx, {
          event: 'lock',
          outcome: 'success',
          accountId: account.id,
          detail: { unlockMail: 'not queued' },
        }),
    },
  };
  await app.register(async (api) => {
    acceptJsonOnly(api);
    for (const routeModule of options.routes ?? apiRoutes) {
      await api.register(async (scope) => routeModule(scope, deps));
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isBuildFilePath(path);
    if (!isPage || isApiPath(path) || isOidcPath(path)) {
      const notFound = new HttpError('not_found', 'Not found.');
      return reply.code(notFound.statusCode).send(notFound.toBody());
    }
    return sendSpaIndex(reply, webDist);
  });
  return app;
}
