import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_PASSWORD_MIN_SCORE, VerificationType } from '@keycard/contract';
import { z } from 'zod';
import {
  cookieSecretsSchema,
  databaseUrlSchema,
  defaultMailSender,
  hostAliasesSchema,
  isHttpOrigin,
  isLoopbackHost,
  jwksSchema,
  LOOPBACK_NETWORKS,
  mailSenderSchema,
  networksSchema,
  otlpProtocol,
  resourceServersSchema,
  trustedProxiesSchema,
  urlWithProtocol,
  wholeNumber,
} from './config-fields.ts';
import { loadSiteTexts, type ReadText } from './site/site-texts.ts';

/** DESIGN §2 Modes: production refuses to start without these; development has working defaults. */
export const REQUIRED_IN_PRODUCTION = [
  'PUBLIC_URL',
  'DATABASE_URL',
  'SMTP_URL',
  'COOKIE_SECRETS',
  'OIDC_JWKS',
] as const;

/**
 * OpenTelemetry tracing, off unless an OTLP endpoint is named. These are the SDK's standard variables:
 * they are checked here, and the SDK reads them and its others (OTEL_BSP_*, OTEL_TRACES_SAMPLER,
 * OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS …) itself.
 */
const tracingEnvironment = {
  OTEL_EXPORTER_OTLP_ENDPOINT: urlWithProtocol(['http', 'https'], 'an http(s) URL').optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: urlWithProtocol(['http', 'https'], 'an http(s) URL').optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol.optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol.optional(),
  OTEL_SERVICE_NAME: z.string().default('keycard'),
  OTEL_SDK_DISABLED: z.stringbool({ error: 'must be true or false' }).default(false),
};
/** pino's levels, least to most verbose; `silent` logs nothing. */
const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** Long enough for a load balancer probing every second or two to see two failed probes. */
const PRODUCTION_DRAIN_MS = 5_000;

/** The environment of DESIGN §5. Defaults are the development defaults of its table. */
function environmentSchema(readText: ReadText) {
  return z
    .object({
      ...tracingEnvironment,
      NODE_ENV: z
        .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
        .default('development'),
      PORT: wholeNumber(1, 65_535).default(3000),
      HOST: z.string().default('127.0.0.1'),
      /** The only origin used in mail links, the OIDC issuer base and redirects (never the request's Host). */
      PUBLIC_URL: z
        .string()
        .refine(isHttpOrigin, {
          error: 'must be an http(s) origin without a path, e.g. https://login.example.com',
        })
        .transform((url) => new URL(url).origin)
        .optional(),
      /**
       * Further names the service answers to besides PUBLIC_URL's, comma-separated, e.g. the address a
       * load balancer probes by; any other Host is answered 421 (http/allowed-hosts.ts).
       */
      PUBLIC_HOST_ALIASES: hostAliasesSchema.default([]),
      /**
       * Networks beyond the public internet that back-channel logout tokens may be posted to, e.g.
       * 10.0.0.0/8 where relying parties listen on internal addresses; `none` for none. Unset: loopback
       * outside production, none in production.
       */
      BACKCHANNEL_PRIVATE_NETWORKS: networksSchema.optional(),
      DATA_DIR: z.string().default('./data'),
      DATABASE_URL: databaseUrlSchema.optional(),
      SMTP_URL: urlWithProtocol(['smtp', 'smtps'], 'an smtp:// or smtps:// URL').optional(),
      /**
       * The development mailbox at /dev/mail: unset = on only without SMTP_URL while HOST is a loopback
       * address; true forces it on, false off. Never in production.
       */
      DEV_MAILBOX: z.stringbool({ error: 'must be true or false' }).optional(),
      MAIL_FROM: mailSenderSchema.optional(),
      REDIS_URL: urlWithProtocol(['redis', 'rediss'], 'a redis:// or rediss:// URL').optional(),
      DEFAULT_REDIRECT_URL: urlWithProtocol(['http', 'https'], 'an absolute http(s) URL').optional(),
      SITE_FILE: z
        .string()
        .optional()
        .transform((file, ctx) => {
          const result = loadSiteTexts(file, readText);
          if (result.ok) return result.site;
          ctx.addIssue({ code: 'custom', message: result.problem });
          return z.NEVER;
        }),
      LOCKOUT_THRESHOLD: wholeNumber(1, 1000).default(5),
      /** 0 = locked until unlocked by the e-mailed link or an admin. */
      LOCKOUT_MINUTES: wholeNumber(0, 525_600).default(60),
      PASSWORD_HISTORY: wholeNumber(0, 100).default(5),
      /** 0 = passwords never expire by age. */
      PASSWORD_MAX_AGE_DAYS: wholeNumber(0, 36_500).default(0),
      /**
       * The least strength a new password must have on the estimator's scale: 0 too guessable … 4 very
       * unguessable (contract rules/password-strength.ts). 0 switches the strength rule off.
       */
      PASSWORD_MIN_SCORE: wholeNumber(0, 4)
        .pipe(z.literal([0, 1, 2, 3, 4]))
        .default(DEFAULT_PASSWORD_MIN_SCORE),
      // DESIGN §2 Codes: code lifetimes. The upper bounds keep a typo from making a code live for weeks.
      /** PasswordReset (1) codes: the forgot-password mail's link. */
      PASSWORD_RESET_CODE_MINUTES: wholeNumber(1, 1440).default(60),
      /** PasswordExpired (2) codes: answered by a sign-in with an expired password. */
      PASSWORD_EXPIRED_CODE_MINUTES: wholeNumber(1, 1440).default(15),
      /** Unlock (3) codes: the link of a lock's unlock mail. */
      UNLOCK_CODE_MINUTES: wholeNumber(1, 1440).default(60),
      /** EmailChanged (7) and ContactEmailChanged (4) codes: the link sent to a new address. */
      EMAIL_CHANGE_CODE_HOURS: wholeNumber(1, 720).default(72),
      /** VerifyUser (6) codes: the invitation that sets the first password. */
      VERIFY_USER_CODE_DAYS: wholeNumber(1, 90).default(7),
      // Refresh tokens (offline_access): each use rotates the token and starts a new idle period; none
      // outlives the absolute lifetime counted from the sign-in that began it.
      /** Days a refresh token works unused. */
      REFRESH_TOKEN_IDLE_DAYS: wholeNumber(1, 365).default(14),
      /** Days from the sign-in after which no refresh token of it works, however often it was used. */
      REFRESH_TOKEN_ABSOLUTE_DAYS: wholeNumber(1, 3650).default(90),
      /**
       * Days from the sign-in after which its session ends however often it is used (it ends after 24
       * hours unused anyway): the person signs in again. 30: NIST SP 800-63B §5.1's overall timeout for a
       * password alone (SHOULD be at most 30).
       */
      SESSION_MAX_DAYS: wholeNumber(1, 365).default(30),
      /** Requests per minute and client IP on /api, /oidc and /admin/api (DESIGN §2 rate limits). */
      RATE_LIMIT_PER_MINUTE: wholeNumber(1, 1_000_000).default(1200),
      // DESIGN §2 Forgot password: mail per address and per IP is limited, in windows of this length.
      /** Forgot-password requests one address may cause per window; more are answered alike but mail nothing. */
      FORGOT_PASSWORD_PER_ADDRESS: wholeNumber(1, 1000).default(3),
      /** Forgot-password requests one client IP may make per window. */
      FORGOT_PASSWORD_PER_IP: wholeNumber(1, 100_000).default(20),
      FORGOT_PASSWORD_WINDOW_MINUTES: wholeNumber(1, 1440).default(15),
      /**
       * The proxies in front whose X-Forwarded-For, -Host and -Proto are believed: false (none), true
       * (the one directly in front) or their number, e.g. 2 for a CDN before a load balancer.
       */
      TRUST_PROXY: trustedProxiesSchema.default(0),
      /** The least level logged; `debug` adds the load balancer's probes to the one line per request. */
      LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
      /**
       * Milliseconds a stopping service keeps serving while GET /health/ready answers 503, so load
       * balancers stop sending before it closes (shutdown.ts); unset: 5000 in production, else 0.
       */
      SHUTDOWN_DRAIN_MS: wholeNumber(0, 60_000).optional(),
      DEMO: z.stringbool({ error: 'must be true or false' }).optional(),
      COOKIE_SECRETS: cookieSecretsSchema.optional(),
      OIDC_JWKS: jwksSchema.optional(),
      /**
       * Minutes a key made by keys:rotate is published before it signs, so relying parties' cached
       * copies of /oidc/jwks know it by then (DESIGN §1 signing keys). 0 signs at once.
       */
      OIDC_KEY_GRACE_MINUTES: wholeNumber(0, 10_080).default(60),
      /**
       * Minutes a replaced key stays published after it stopped signing. At least a day, the longest a
       * token it signed may live: a resource server's JWT access token (RFC 9068) up to 86 400 s, an
       * ID token 60 minutes, and a session, whose id_token_hint at sign-out must still verify, a day.
       */
      OIDC_KEY_RETAIN_MINUTES: wholeNumber(1440, 43_200).default(1440),
      RESOURCE_SERVERS: resourceServersSchema.default([]),
      /**
       * The port of the Prometheus metrics listener (metrics/metrics-listener.ts); unset = no metrics
       * served. A port of its own, never PORT: the scraper reaches it, the load balancer does not.
       */
      METRICS_PORT: wholeNumber(1, 65_535).optional(),
      /** The metrics listener's address; unset = HOST, like Keycloak's management interface. */
      METRICS_HOST: z.string().optional(),
      /**
       * Threads of libuv's pool, read by Node itself (1–1024, default 4); argon2 runs there, and the
       * metrics model its queue with this number.
       */
      UV_THREADPOOL_SIZE: wholeNumber(1, 1024).default(4),
    })
    .check((ctx) => {
      if (ctx.value.NODE_ENV === 'production' && ctx.value.DEV_MAILBOX === true) {
        ctx.issues.push({
          code: 'custom',
          path: ['DEV_MAILBOX'],
          message: 'cannot be on when NODE_ENV=production (it shows live reset links)',
          input: ctx.value.DEV_MAILBOX,
        });
      }
      if (ctx.value.METRICS_PORT !== undefined && ctx.value.METRICS_PORT === ctx.value.PORT) {
        ctx.issues.push({
          code: 'custom',
          path: ['METRICS_PORT'],
          message: 'must differ from PORT (the metrics have a listener of their own)',
          input: ctx.value.METRICS_PORT,
        });
      }
      if (ctx.value.METRICS_HOST !== undefined && ctx.value.METRICS_PORT === undefined) {
        ctx.issues.push({
          code: 'custom',
          path: ['METRICS_HOST'],
          message: 'needs METRICS_PORT (without it no metrics are served)',
          input: ctx.value.METRICS_HOST,
        });
      }
      const { REFRESH_TOKEN_IDLE_DAYS: idle, REFRESH_TOKEN_ABSOLUTE_DAYS: absolute } = ctx.value;
      if (absolute < idle) {
        ctx.issues.push({
          code: 'custom',
          path: ['REFRESH_TOKEN_ABSOLUTE_DAYS'],
          message: 'must be at least REFRESH_TOKEN_IDLE_DAYS',
          input: absolute,
        });
      }
    });
}

type Environment = z.output<ReturnType<typeof environmentSchema>>;

/**
 * DESIGN §2 Codes: how long a code of each type works, in milliseconds; the mail carrying a code
 * expires with it. Only these verification types are issued as codes (the others are answers).
 */
export type CodeLifetimes = Readonly<
  Record<
    Exclude<VerificationType, typeof VerificationType.None | typeof VerificationType.UserNotFound>,
    number
  >
>;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const DAY_SECONDS = DAY_MS / 1000;

function codeLifetimesOf(env: Environment): CodeLifetimes {
  return {
    [VerificationType.PasswordReset]: env.PASSWORD_RESET_CODE_MINUTES * MINUTE_MS,
    [VerificationType.PasswordExpired]: env.PASSWORD_EXPIRED_CODE_MINUTES * MINUTE_MS,
    [VerificationType.LockedAfterTooManyFailedAttempts]: env.UNLOCK_CODE_MINUTES * MINUTE_MS,
    [VerificationType.ContactEmailChanged]: env.EMAIL_CHANGE_CODE_HOURS * HOUR_MS,
    [VerificationType.VerifyUser]: env.VERIFY_USER_CODE_DAYS * DAY_MS,
    [VerificationType.EmailChanged]: env.EMAIL_CHANGE_CODE_HOURS * HOUR_MS,
  };
}

/**
 * Whether /dev/mail is served, and why (the start-up log says it). Its pages show live reset links,
 * so by default only where nobody else can reach them: mail goes nowhere else (no SMTP_URL), the
 * service listens on a loopback address, and nothing says it is reached from elsewhere: a reverse
 * proxy on the same machine (TRUST_PROXY) or a PUBLIC_URL on another host would pass every reader's
 * requests on to it. DEV_MAILBOX overrides that outside production.
 */
function devMailboxOf(env: Environment): { readonly on: boolean; readonly reason: string } {
  if (env.NODE_ENV === 'production') return { on: false, reason: 'NODE_ENV=production' };
  if (env.DEV_MAILBOX !== undefined) return { on: env.DEV_MAILBOX, reason: `DEV_MAILBOX=${env.DEV_MAILBOX}` };
  if (env.SMTP_URL !== undefined) return { on: false, reason: 'SMTP_URL is set' };
  if (!isLoopbackHost(env.HOST)) return { on: false, reason: `HOST ${env.HOST} is not a loopback address` };
  if (env.TRUST_PROXY > 0)
    return { on: false, reason: 'TRUST_PROXY is set: the service is reached through a proxy' };
  const publicHost = env.PUBLIC_URL === undefined ? 'localhost' : new URL(env.PUBLIC_URL).hostname;
  if (!isLoopbackHost(publicHost))
    return { on: false, reason: `PUBLIC_URL's host ${publicHost} is not a loopback address` };
  return { on: true, reason: `no SMTP_URL and HOST ${env.HOST} is a loopback address` };
}

function toConfig(env: Environment) {
  const production = env.NODE_ENV === 'production';
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  // DESIGN §2 Modes: production never runs the demo relying party, whatever DEMO says.
  const demo = production ? false : (env.DEMO ?? true);
  return {
    nodeEnv: env.NODE_ENV,
    production,
    port: env.PORT,
    host: env.HOST,
    publicUrl,
    /** Absolute, so a later chdir cannot move the embedded database. */
    dataDir: path.resolve(env.DATA_DIR),
    /** Unset: the embedded PGlite database in dataDir. */
    databaseUrl: env.DATABASE_URL,
    /** Unset: mail goes to the development mailbox and the log. */
    smtpUrl: env.SMTP_URL,
    /** The development mailbox at /dev/mail (DESIGN §2 Mail), with the reason it is on or off. */
    devMailbox: devMailboxOf(env),
    /** Unset: no-reply at PUBLIC_URL's host. */
    mailFrom: env.MAIL_FROM ?? defaultMailSender(publicUrl),
    /** Unset: rate-limit counters live in this process. */
    redisUrl: env.REDIS_URL,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    /** DESIGN §2 Forgot password: requests per address and per client IP in one window. */
    forgotPasswordLimits: {
      perAddress: env.FORGOT_PASSWORD_PER_ADDRESS,
      perIp: env.FORGOT_PASSWORD_PER_IP,
      windowMs: env.FORGOT_PASSWORD_WINDOW_MINUTES * MINUTE_MS,
    },
    /** Names the service answers to (lower-case hostnames, no port): PUBLIC_URL's and its aliases. */
    allowedHosts: [new URL(publicUrl).hostname, ...env.PUBLIC_HOST_ALIASES],
    /** Where back-channel logout may post besides public addresses (backchannel/reachable-networks.ts). */
    backchannelPrivateNetworks: env.BACKCHANNEL_PRIVATE_NETWORKS ?? (production ? [] : LOOPBACK_NETWORKS),
    defaultRedirectUrl: env.DEFAULT_REDIRECT_URL ?? (demo ? `${publicUrl}/demo` : `${publicUrl}/`),
    site: env.SITE_FILE,
    lockoutThreshold: env.LOCKOUT_THRESHOLD,
    lockoutMinutes: env.LOCKOUT_MINUTES,
    passwordHistory: env.PASSWORD_HISTORY,
    passwordMaxAgeDays: env.PASSWORD_MAX_AGE_DAYS,
    passwordMinScore: env.PASSWORD_MIN_SCORE,
    /** Seconds a sign-in session lasts unused, and at most from the sign-in. */
    sessionLifetimes: { idleSeconds: DAY_SECONDS, absoluteSeconds: env.SESSION_MAX_DAYS * DAY_SECONDS },
    /** Seconds a refresh token works unused, and at most from the sign-in that began it. */
    refreshTokenLifetimes: {
      idleSeconds: env.REFRESH_TOKEN_IDLE_DAYS * DAY_SECONDS,
      absoluteSeconds: env.REFRESH_TOKEN_ABSOLUTE_DAYS * DAY_SECONDS,
    },
    /** Milliseconds a code of each verification type works (DESIGN §2 Codes). */
    codeLifetimes: codeLifetimesOf(env),
    /**
     * How many proxies in front are believed (TRUST_PROXY): the client's address is the X-Forwarded-For
     * entry the farthest of them appended; 0 believes no forwarded header at all.
     */
    trustedProxies: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    /** Milliseconds of draining before a stop: GET /health/ready answers 503 while requests are still served. */
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS ?? (production ? PRODUCTION_DRAIN_MS : 0),
    demo,
    /** Unset (development only): a secret generated at first start and kept in the database. */
    cookieSecrets: env.COOKIE_SECRETS,
    /** Unset (development only): signing keys generated at first start and kept in the database. */
    oidcJwks: env.OIDC_JWKS,
    /** Milliseconds a rotated-in key is published before it signs. */
    keyGraceMs: env.OIDC_KEY_GRACE_MINUTES * MINUTE_MS,
    /** Milliseconds a replaced key stays published after it stopped signing. */
    keyRetainMs: env.OIDC_KEY_RETAIN_MINUTES * MINUTE_MS,
    /** APIs a client may ask access tokens for (RFC 8707), besides the registered ones; none by default. */
    resourceServers: env.RESOURCE_SERVERS,
    /** Where Prometheus scrapes (metrics/metrics-listener.ts); undefined: no metrics listener. */
    metricsListener:
      env.METRICS_PORT === undefined
        ? undefined
        : { host: env.METRICS_HOST ?? env.HOST, port: env.METRICS_PORT },
    /** Threads of libuv's pool, which argon2 verifications share (UV_THREADPOOL_SIZE). */
    threadPoolSize: env.UV_THREADPOOL_SIZE,
  };
}

/** The one configuration object of the service (STYLE §10), parsed from the environment at start. */
export type Config = ReturnType<typeof toConfig>;

/** Start-up stops with this; its message lists every bad variable by name and never echoes a value. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(
      `Keycard cannot start; fix these environment variables:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

/** Empty or blank variables count as unset, so `PORT=` in an env file means "use the default". */
function withoutBlanks(env: NodeJS.ProcessEnv): Record<string, string> {
  const entries = Object.entries(env).flatMap(([name, value]) =>
    value === undefined || value.trim() === '' ? [] : [[name, value.trim()] as const],
  );
  return Object.fromEntries(entries);
}

/**
 * Parses the environment (DESIGN §5). Pure apart from `readText`, which reads SITE_FILE.
 * Throws ConfigError naming every bad or, in production, missing variable at once.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv,
  readText: ReadText = (file) => readFileSync(file, 'utf8'),
): Config {
  const values = withoutBlanks(env);
  const problems = new Map<string, string>();
  if (values.NODE_ENV === 'production') {
    for (const name of REQUIRED_IN_PRODUCTION) {
      if (values[name] === undefined) problems.set(name, `${name}: required when NODE_ENV=production`);
    }
  }
  const parsed = environmentSchema(readText).safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? 'environment');
      if (!problems.has(name)) problems.set(name, `${name}: ${issue.message}`);
    }
  }
  if (problems.size > 0 || !parsed.success) throw new ConfigError([...problems.values()]);
  return toConfig(parsed.data);
}

/** How spans are exported, when they are (tracing/start-tracing.ts). */
export interface TracingSettings {
  readonly serviceName: string;
  /** OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf. */
  readonly protocol: z.output<typeof otlpProtocol>;
}

/**
 * Whether to trace, read on its own before anything else: the SDK has to start before the modules it
 * instruments load, so before loadConfig runs. Undefined when off, or when a tracing variable is bad,
 * in which case loadConfig names it and start-up stops.
 */
export function tracingSettings(env: NodeJS.ProcessEnv): TracingSettings | undefined {
  const parsed = z.object(tracingEnvironment).safeParse(withoutBlanks(env));
  if (!parsed.success || parsed.data.OTEL_SDK_DISABLED) return undefined;
  const values = parsed.data;
  if (
    values.OTEL_EXPORTER_OTLP_ENDPOINT === undefined &&
    values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT === undefined
  ) {
    return undefined;
  }
  return {
    serviceName: values.OTEL_SERVICE_NAME,
    protocol:
      values.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? values.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
  };
}
