import { MAX_BODY_BYTES } from '@keycard/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createLoginDeps } from '../accounts/login.ts';
import type { HashVerifier } from '../accounts/password-hash.ts';
import { createLogoutWorker, type LogoutWorker } from '../backchannel/backchannel-worker.ts';
import type { Config } from '../config.ts';
import { demoRoutes } from '../demo/demo-routes.ts';
import { ensureDemoClient } from '../demo/demo-setup.ts';
import { loggableError } from '../errors/loggable-error.ts';
import { requestIdGenerator } from '../errors/request-id.ts';
import { ServiceError } from '../errors/service-error.ts';
import { LANGUAGE_TEXTS, type LanguageTextSet, textResourceFor } from '../i18n/text-resource.ts';
import { devMailboxRoutes, isDevMailboxPath } from '../mail/dev-mailbox/mailbox-routes.ts';
import { createMailService, type MailService } from '../mail/mail-service.ts';
import { createMetrics, type Metrics } from '../metrics/metrics.ts';
import type { ClientCache } from '../oidc/client-cache.ts';
import { baseSigningKeys, providerCookieKeys, signingKeySettings } from '../oidc/keys.ts';
import { createProviderSource, type KeyScheduleCache } from '../oidc/provider-source.ts';
import { createRecoveryDeps } from '../recovery/create-recovery-deps.ts';
import { queueUnlockMail } from '../recovery/unlock-mail.ts';
import { closeConnectionsWhenClosing } from '../shutdown.ts';
import { type Clock, databaseClock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { openSharedCounters } from '../store/redis.ts';
import { getOrCreateSecret } from '../store/secrets.ts';
import { registerAdminApi } from './admin-api/admin-api.ts';
import { registerAllowedHosts } from './allowed-hosts.ts';
import { registerAllowedMethods } from './allowed-methods.ts';
import { registerCsrf } from './csrf.ts';
import { installErrorHandler } from './error-handler.ts';
import { frameworkErrors } from './framework-errors.ts';
import { registerHealth } from './health.ts';
import { acceptJsonOnly } from './json-only.ts';
import { requestSerializers } from './log-serializers.ts';
import { mountProvider } from './oidc-mount.ts';
import {
  isAdminApiPath,
  isApiPath,
  isHealthPath,
  isOidcPath,
  pathOf,
  withUnreservedDecoded,
} from './paths.ts';
import { registerRateLimit } from './rate-limit.ts';
import { createReadiness } from './readiness.ts';
import { RequestLog, sendRequestIds } from './request-log.ts';
import { countAnswer, measureRequests } from './request-metrics.ts';
import type { RouteDeps, RouteModule } from './route-module.ts';
import { apiRoutes } from './routes/index.ts';
import { registerSecurityHeaders, registerTransportSecurity, securityHeaders } from './security-headers.ts';
import { DEFAULT_WEB_DIST, inlineStyleSources, isBuildFilePath, registerSpa } from './spa.ts';
import { proxyTrust } from './trusted-proxies.ts';

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
  /**
   * Mail outbox and worker; defaults to one built from config. Exposed as `app.mail`; its worker runs
   * only once started (main.ts after listen, or a test), and app.close() stops it.
   */
  readonly mail?: MailService;
  /**
   * The one clock codes, locks and the provider's stored sessions expire by (DESIGN §2 Codes, §4);
   * defaults to the database's, which every instance shares.
   */
  readonly clock?: Clock;
  /** The argon2 verification of a sign-in's password (DESIGN §2 Login); defaults to argon2 itself. */
  readonly verifyHash?: HashVerifier;
  /**
   * The app's Prometheus metrics (metrics/metrics.ts), exposed as `app.metrics`; defaults to a fresh
   * set without the database pool's figures. main.ts serves them on METRICS_PORT.
   */
  readonly metrics?: Metrics;
  /**
   * Client registrations kept across requests (oidc/client-cache.ts), which main.ts keeps true to the
   * database (oidc/client-changes.ts); absent: every protocol request reads its client.
   */
  readonly clientCache?: ClientCache;
}

/** Name of the stored development cookie secret (used only when COOKIE_SECRETS is unset). */
export const DEV_COOKIE_SECRET = 'cookie-signing';

function withSafeSerializers(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...requestSerializers, err: loggableError, ...options.serializers } };
}

/** The longest path parameter routed: the contract's longest (2048 characters), percent-encoded. */
const MAX_PATH_PARAMETER_LENGTH = 3 * 2048;

/** Builds the service (fastify/demo style: built here, started by main.ts, injected by tests). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const webDist = options.webDist ?? DEFAULT_WEB_DIST;
  // Development keeps a generated secret in the database so restarts keep CSRF cookies valid;
  // production must configure COOKIE_SECRETS (config.ts refuses to start otherwise).
  const cookieSecrets = config.cookieSecrets ?? [await getOrCreateSecret(db, DEV_COOKIE_SECRET)];
  const headers = securityHeaders(config.publicUrl, inlineStyleSources(webDist));
  // Every answer counts, those the hooks below give too (http/request-metrics.ts).
  const metrics = options.metrics ?? createMetrics({ threadPoolSize: config.threadPoolSize });
  const requestLog = new RequestLog();
  const app = Fastify({
    logger: withSafeSerializers(options.logger),
    // A path the router cannot read is bad input too, with the headers of every answer, logged and
    // counted like any other.
    frameworkErrors: frameworkErrors(headers, (request, reply, seconds) => {
      requestLog.answered(request, reply, seconds * 1000);
      countAnswer(metrics.http, request, reply, seconds);
    }),
    // One line a request, with its id (request-log.ts); the id a trusted proxy sent, or a fresh one.
    logController: requestLog,
    genReqId: requestIdGenerator(config.trustedProxies > 0),
    bodyLimit: MAX_BODY_BYTES,
    // The router's default (100 characters) would turn a path parameter the contract allows into a 404:
    // a resource server's identifier may be 2048 characters, each percent-encoded as three.
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    // TRUST_PROXY: the client is who the proxies in front say, as far as they are believed, no further.
    trustProxy: proxyTrust(config.trustedProxies),
    // Every hook reads the path the router matches (paths.ts), however its letters were escaped.
    rewriteUrl: (request) => withUnreservedDecoded(request.url ?? '/'),
  });
  app.decorate('metrics', metrics);
  measureRequests(app, metrics.http);
  installErrorHandler(app);
  // First of all hooks, so every answer carries its request's id, a refused one included.
  sendRequestIds(app);
  // Then DESIGN §2's headers, so a refusal by any later hook carries them too (421, 405, 403, 429).
  registerSecurityHeaders(app, headers);
  // Then a request for a name the service is not configured under gets no further.
  registerAllowedHosts(app, { hosts: config.allowedHosts, loopback: !config.production });
  // HSTS only for a name the service answers under.
  registerTransportSecurity(app, headers.hsts);
  // Then a method no route of the path takes: 405 with Allow, before CSRF or a route sees it.
  registerAllowedMethods(app);
  closeConnectionsWhenClosing(app);
  // Mail (DESIGN §2 Mail): sends outside requests; closing the app waits for a send in progress.
  const mail = options.mail ?? createMailService({ config, db, log: app.log, meter: metrics.mail });
  app.decorate('mail', mail);
  app.addHook('onClose', () => mail.stop());
  await registerCsrf(app, { publicUrl: config.publicUrl, cookieSecrets });
  const sendSpaIndex = await registerSpa(app, webDist);
  // Load balancers' probes: before the request limit, like the SPA's files (health.ts).
  registerHealth(app, createReadiness({ db, mailWorkerRunning: mail.running, log: app.log }));
  // REDIS_URL: counters shared by every instance (DESIGN §5); otherwise kept in this process.
  const shared = config.redisUrl === undefined ? undefined : openSharedCounters(config.redisUrl, app.log);
  if (shared) app.addHook('onClose', () => shared.close());
  await registerRateLimit(app, { perMinute: config.rateLimitPerMinute, ...(shared ? { shared } : {}) });

  const texts = options.texts ?? LANGUAGE_TEXTS;
  const clock = options.clock ?? databaseClock(db);
  const keySettings = signingKeySettings(config);
  const providers = createProviderSource({
    config,
    db,
    clock,
    baseKeys: await baseSigningKeys(keySettings, db),
    cookieKeys: await providerCookieKeys(config, db),
    retainMs: keySettings.retainMs,
    log: app.log,
    clientCache: options.clientCache,
    // The worker below, woken once a sign-in as another account has queued the first one's tokens.
    logouts: { clock, nudge: () => logouts.nudge() },
  });
  await mountProvider(app, providers);
  // Told of rotations and revocations: by the admin API here once they commit (key-routes.ts), and by
  // main.ts's listener of the database's announcements (oidc/key-changes.ts).
  app.decorate('keySchedule', { invalidate: () => providers.invalidate() });
  // Interactions, grants and stored tokens need no signing key: the routes keep the first provider.
  const provider = providers.initial;
  // Back-channel logout tokens (OpenID Connect Back-Channel Logout 1.0): started like the mail worker;
  // each is signed by the provider of the key set in force when it is sent.
  const logouts = createLogoutWorker({
    db,
    provider: () => providers.current(),
    clock,
    log: app.log,
    networks: config.backchannelPrivateNetworks,
  });
  app.decorate('logouts', logouts);
  app.addHook('onClose', () => logouts.stop());
  if (config.demo) {
    await ensureDemoClient(db, config.publicUrl);
    await app.register(async (scope) =>
      demoRoutes(scope, {
        publicUrl: config.publicUrl,
        textsFor: (language) => textResourceFor(texts, config.site, language),
      }),
    );
  }

  // DESIGN §2 Modes: the dev mailbox exists only outside production, and there only where its live
  // links cannot leak (config.ts devMailboxOf) or when asked for by DEV_MAILBOX.
  if (config.devMailbox.on) await app.register(async (scope) => devMailboxRoutes(scope, { db }));

  const recovery = createRecoveryDeps({ config, db, mail, clock, ...(shared ? { shared } : {}) });
  const deps: RouteDeps = {
    config,
    db,
    mail,
    texts,
    provider,
    login: createLoginDeps(config, {
      db,
      clock,
      verifyHash: options.verifyHash,
      meters: metrics,
      // DESIGN §2 Login: the lock's one unlock mail, queued in the transaction that claimed it.
      onLocked: queueUnlockMail(recovery),
      nudgeMail: () => mail.nudge(),
    }),
    recovery,
    logouts: { clock, nudge: logouts.nudge },
  };
  await app.register(async (api) => {
    acceptJsonOnly(api);
    for (const routeModule of options.routes ?? apiRoutes) {
      await api.register(async (scope) => routeModule(scope, deps));
    }
  });
  // DESIGN §1 Provisioning: client-credentials tokens of this provider, no cookies, no CSRF.
  await registerAdminApi(app, { config, db, provider, mail, clock, clientCache: options.clientCache });

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isBuildFilePath(path);
    const served = [isApiPath, isAdminApiPath, isOidcPath, isDevMailboxPath, isHealthPath];
    if (!isPage || served.some((isServed) => isServed(path))) {
      const notFound = new ServiceError('not_found', 'Not found.');
      return reply.code(notFound.statusCode).send(notFound.toBody());
    }
    return sendSpaIndex(request, reply);
  });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics; main.ts serves them on METRICS_PORT (metrics/metrics-listener.ts). */
    readonly metrics: Metrics;
    /** The back-channel logout worker (oidc/backchannel-worker.ts); main.ts starts it once listening. */
    readonly logouts: LogoutWorker;
    /** The protocol provider's key schedule: told of a changed key set, it is read again at once. */
    readonly keySchedule: KeyScheduleCache;
  }
}
