import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { siteFileSchema, siteTextsFor } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, tracingSettings } from './config.ts';
import defaultSite from './site/default-site.json' with { type: 'json' };

const SECRET_A = 'a'.repeat(32);
const SECRET_B = 'b'.repeat(40);
const privateJwks = JSON.stringify({
  keys: [
    {
      ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
      kid: 'k1',
    },
  ],
});
const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://login.example.com',
  DATABASE_URL: 'postgres://keycard@db.example.com:5432/keycard',
  SMTP_URL: 'smtps://mailer@smtp.example.com:465',
  COOKIE_SECRETS: SECRET_A,
  OIDC_JWKS: privateJwks,
};

function problemsOf(env: NodeJS.ProcessEnv, readText?: (file: string) => string): readonly string[] {
  try {
    loadConfig(env, readText);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('configuration was accepted');
}

describe('loadConfig defaults (DESIGN §5)', () => {
  it('runs development mode with no configuration at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      production: false,
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      dataDir: path.resolve('data'),
      databaseUrl: undefined,
      smtpUrl: undefined,
      mailFrom: 'Keycard <no-reply@localhost>',
      redisUrl: undefined,
      defaultRedirectUrl: 'http://localhost:3000/demo',
      lockoutThreshold: 5,
      lockoutMinutes: 60,
      passwordHistory: 5,
      passwordMaxAgeDays: 0,
      passwordMinScore: 3,
      trustedProxies: 0,
      logLevel: 'info',
      shutdownDrainMs: 0,
      demo: true,
      cookieSecrets: undefined,
      oidcJwks: undefined,
      allowedHosts: ['localhost'],
    });
    expect(config.site).toEqual(defaultSite);
  });

  it('limits forgot-password mail to 3 per address and 20 per IP in 15 minutes unless configured', () => {
    expect(loadConfig({}).forgotPasswordLimits).toEqual({ perAddress: 3, perIp: 20, windowMs: 15 * 60_000 });
    const configured = loadConfig({
      FORGOT_PASSWORD_PER_ADDRESS: '1',
      FORGOT_PASSWORD_PER_IP: '100',
      FORGOT_PASSWORD_WINDOW_MINUTES: '60',
    });
    expect(configured.forgotPasswordLimits).toEqual({ perAddress: 1, perIp: 100, windowMs: 60 * 60_000 });
  });

  it('drains 5000 ms before a stop in production and not at all elsewhere, unless configured', () => {
    expect(loadConfig(PRODUCTION).shutdownDrainMs).toBe(5000);
    expect(loadConfig({ NODE_ENV: 'test' }).shutdownDrainMs).toBe(0);
    expect(loadConfig({ ...PRODUCTION, SHUTDOWN_DRAIN_MS: '0' }).shutdownDrainMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '60000' }).shutdownDrainMs).toBe(60_000);
  });

  it('keeps a replaced signing key published a day (1440 minutes) unless configured longer', () => {
    expect(loadConfig({}).keyRetainMs).toBe(1440 * 60_000);
    expect(loadConfig({ OIDC_KEY_RETAIN_MINUTES: '1440' }).keyRetainMs).toBe(1440 * 60_000);
    expect(loadConfig({ OIDC_KEY_RETAIN_MINUTES: '43200' }).keyRetainMs).toBe(43_200 * 60_000);
  });

  it('logs at the configured level', () => {
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(loadConfig({ ...PRODUCTION, LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
  });

  it("answers for PUBLIC_URL's host name and the configured aliases, without ports", () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://Login.Example.com',
      PUBLIC_HOST_ALIASES: ' 10.0.0.5 , Keycard.Internal. ,[::1]',
    });
    expect(config.allowedHosts).toEqual(['login.example.com', '10.0.0.5', 'keycard.internal', '[::1]']);
  });

  it("sends as no-reply at PUBLIC_URL's host unless MAIL_FROM names one sender, with or without a name", () => {
    expect(loadConfig({ PUBLIC_URL: 'https://login.example.com' }).mailFrom).toBe(
      'Keycard <no-reply@login.example.com>',
    );
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:3000' }).mailFrom).toBe('Keycard <no-reply@localhost>');
    expect(loadConfig({ PUBLIC_URL: 'http://[::1]:3000' }).mailFrom).toBe('Keycard <no-reply@localhost>');
    expect(loadConfig({ MAIL_FROM: 'no-reply@example.com' }).mailFrom).toBe('no-reply@example.com');
    expect(loadConfig({ MAIL_FROM: '"Keycard, Sign-in" <no-reply@example.com>' }).mailFrom).toBe(
      '"Keycard, Sign-in" <no-reply@example.com>',
    );
  });

  it('posts back-channel logouts to loopback outside production and to no private network in it, unless configured', () => {
    const written = (networks: readonly (readonly [{ toString(): string }, number])[]) =>
      networks.map(([address, bits]) => `${address.toString()}/${bits}`);
    expect(written(loadConfig({}).backchannelPrivateNetworks)).toEqual(['127.0.0.0/8', '::1/128']);
    expect(written(loadConfig(PRODUCTION).backchannelPrivateNetworks)).toEqual([]);
    expect(written(loadConfig({ BACKCHANNEL_PRIVATE_NETWORKS: 'None' }).backchannelPrivateNetworks)).toEqual(
      [],
    );
    const configured = loadConfig({
      ...PRODUCTION,
      BACKCHANNEL_PRIVATE_NETWORKS:
        ' 10.20.0.0/16 , fd00::/8,192.168.1.7 ,::1,10.9.9.9/32,fd00::7/128,::ffff:172.16.0.0/108,::ffff:10.1.1.1',
    });
    expect(written(configured.backchannelPrivateNetworks)).toEqual([
      '10.20.0.0/16',
      'fd00::/8',
      '192.168.1.7/32',
      '::1/128',
      '10.9.9.9/32',
      'fd00::7/128',
      // Written as IPv6, an IPv4 network is that IPv4 network, as the addresses are compared.
      '172.16.0.0/12',
      '10.1.1.1/32',
    ]);
  });
});

describe('the development mailbox (DEV_MAILBOX)', () => {
  it('is on without SMTP_URL while the service listens on a loopback address', () => {
    for (const host of [
      '127.0.0.1',
      '127.0.1.1',
      'localhost',
      '::1',
      '[::1]',
      '::ffff:7f00:1',
      '[::ffff:7fff:1]',
    ]) {
      expect(loadConfig({ HOST: host }).devMailbox, host).toEqual({
        on: true,
        reason: `no SMTP_URL and HOST ${host} is a loopback address`,
      });
    }
  });

  it('is off once SMTP_URL is configured', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).devMailbox).toEqual({
      on: false,
      reason: 'SMTP_URL is set',
    });
  });

  it('is off when the service listens on an address others can reach', () => {
    for (const host of [
      '0.0.0.0',
      '::',
      '192.168.1.20',
      'keycard.example.com',
      '::ffff:a00:1',
      '::ffff:8000:1',
      '::2',
      '::1%lo',
    ]) {
      expect(loadConfig({ HOST: host }).devMailbox, host).toEqual({
        on: false,
        reason: `HOST ${host} is not a loopback address`,
      });
    }
  });

  it('is off when a proxy or a PUBLIC_URL on another host says others reach the service', () => {
    expect(loadConfig({ HOST: '127.0.0.1', TRUST_PROXY: '1' }).devMailbox).toEqual({
      on: false,
      reason: 'TRUST_PROXY is set: the service is reached through a proxy',
    });
    expect(loadConfig({ HOST: '127.0.0.1', PUBLIC_URL: 'https://staging.example.com' }).devMailbox).toEqual({
      on: false,
      reason: "PUBLIC_URL's host staging.example.com is not a loopback address",
    });
    expect(loadConfig({ HOST: '127.0.0.1', PUBLIC_URL: 'http://keycard.localhost:3000' }).devMailbox.on).toBe(
      true,
    );
    expect(loadConfig({ HOST: '127.0.0.1', TRUST_PROXY: '1', DEV_MAILBOX: 'true' }).devMailbox.on).toBe(true);
  });

  it('is on or off as DEV_MAILBOX says, outside production', () => {
    expect(loadConfig({ HOST: '0.0.0.0', SMTP_URL: 'smtp://mail:25', DEV_MAILBOX: '1' }).devMailbox).toEqual({
      on: true,
      reason: 'DEV_MAILBOX=true',
    });
    expect(loadConfig({ DEV_MAILBOX: 'false' }).devMailbox).toEqual({
      on: false,
      reason: 'DEV_MAILBOX=false',
    });
  });

  it('is never on in production, and asking for it there stops start-up', () => {
    expect(loadConfig(PRODUCTION).devMailbox.on).toBe(false);
    expect(loadConfig({ ...PRODUCTION, DEV_MAILBOX: 'false' }).devMailbox.on).toBe(false);
    expect(problemsOf({ ...PRODUCTION, DEV_MAILBOX: 'true' })).toEqual([
      'DEV_MAILBOX: cannot be on when NODE_ENV=production (it shows live reset links)',
    ]);
  });

  it('gives every verification code the lifetime of DESIGN §2 Codes unless configured', () => {
    // Keyed by verification type (SPEC §3), in milliseconds, written out: a changed default fails here.
    expect(loadConfig({}).codeLifetimes).toEqual({
      1: 60 * 60_000, // PasswordReset: 60 minutes
      2: 15 * 60_000, // PasswordExpired: 15 minutes
      3: 60 * 60_000, // unlock: 60 minutes
      4: 72 * 3_600_000, // ContactEmailChanged: 72 hours
      6: 7 * 86_400_000, // VerifyUser: 7 days
      7: 72 * 3_600_000, // EmailChanged: 72 hours
    });
  });

  it('parses configured code lifetimes in their own units', () => {
    const config = loadConfig({
      PASSWORD_RESET_CODE_MINUTES: '30',
      PASSWORD_EXPIRED_CODE_MINUTES: '5',
      UNLOCK_CODE_MINUTES: '120',
      EMAIL_CHANGE_CODE_HOURS: '24',
      VERIFY_USER_CODE_DAYS: '14',
    });
    expect(config.codeLifetimes).toEqual({
      1: 30 * 60_000,
      2: 5 * 60_000,
      3: 120 * 60_000,
      4: 24 * 3_600_000,
      6: 14 * 86_400_000,
      7: 24 * 3_600_000,
    });
  });

  it('ships example site values that satisfy the contract', () => {
    expect(siteFileSchema.safeParse(defaultSite).success).toBe(true);
    expect(defaultSite.siteEmail).toMatch(/example\.com$/);
    // The imprint's wording is per language: the German imprint shows German values (issue 16).
    expect(defaultSite.siteAddress).toEqual({
      en: 'Musterstraße 12, 10115 Berlin, Germany',
      de: 'Musterstraße 12, 10115 Berlin, Deutschland',
    });
  });

  it('derives PUBLIC_URL from PORT and normalises a configured one to its origin', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://Login.Example.com/' }).publicUrl).toBe(
      'https://login.example.com',
    );
  });

  it('treats blank variables as unset', () => {
    expect(loadConfig({ PORT: '', DEMO: '  ' })).toMatchObject({ port: 3000, demo: true });
  });

  it('serves no metrics unless METRICS_PORT is set, and then on HOST unless METRICS_HOST names another', () => {
    expect(loadConfig({}).metricsListener).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsListener).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ HOST: '0.0.0.0', METRICS_PORT: '9464' }).metricsListener).toEqual({
      host: '0.0.0.0',
      port: 9464,
    });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metricsListener).toEqual({
      host: '10.0.0.5',
      port: 9464,
    });
    expect(loadConfig({}).threadPoolSize).toBe(4);
    expect(loadConfig({ UV_THREADPOOL_SIZE: '8' }).threadPoolSize).toBe(8);
  });

  it('reads TRUST_PROXY as the number of proxies in front: false none, true the one in front', () => {
    const trusted = (value: string) => loadConfig({ TRUST_PROXY: value }).trustedProxies;
    expect(loadConfig({}).trustedProxies).toBe(0);
    expect([trusted('false'), trusted('FALSE'), trusted('0')]).toEqual([0, 0, 0]);
    expect([trusted('true'), trusted('True'), trusted('1')]).toEqual([1, 1, 1]);
    expect([trusted('2'), trusted('10')]).toEqual([2, 10]);
  });

  it('sends recovery flows to the landing page when the demo is off', () => {
    expect(loadConfig({ DEMO: 'false' }).defaultRedirectUrl).toBe('http://localhost:3000/');
    expect(loadConfig({ DEFAULT_REDIRECT_URL: 'https://app.example.com/' }).defaultRedirectUrl).toBe(
      'https://app.example.com/',
    );
  });

  it('parses every account rule, flag and secret', () => {
    const config = loadConfig({
      LOCKOUT_THRESHOLD: '3',
      LOCKOUT_MINUTES: '0',
      PASSWORD_HISTORY: '10',
      PASSWORD_MAX_AGE_DAYS: '90',
      PASSWORD_MIN_SCORE: '4',
      TRUST_PROXY: 'true',
      COOKIE_SECRETS: ` ${SECRET_A} , ${SECRET_B} `,
      OIDC_JWKS: privateJwks,
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(config).toMatchObject({ lockoutThreshold: 3, lockoutMinutes: 0, passwordHistory: 10 });
    expect(config).toMatchObject({
      passwordMaxAgeDays: 90,
      passwordMinScore: 4,
      trustedProxies: 1,
      redisUrl: 'redis://127.0.0.1:6379',
    });
    expect(config.cookieSecrets).toEqual([SECRET_A, SECRET_B]);
    expect(config.oidcJwks?.keys[0]).toMatchObject({ kty: 'RSA', kid: 'k1' });
  });
});

describe('loadConfig refusals', () => {
  const bad: readonly (readonly [string, string])[] = [
    ['PORT', '70000'],
    ['PORT', 'http'],
    ['NODE_ENV', 'prod'],
    ['PUBLIC_URL', 'login.example.com'],
    ['PUBLIC_URL', 'https://example.com/keycard'],
    ['PUBLIC_URL', 'ftp://example.com'],
    ['DATABASE_URL', 'mysql://db/keycard'],
    ['SMTP_URL', 'http://mail'],
    ['MAIL_FROM', 'x'],
    ['MAIL_FROM', 'Keycard'],
    ['MAIL_FROM', 'Keycard <no-reply>'],
    ['MAIL_FROM', 'no-reply@'],
    ['MAIL_FROM', 'a@example.com, b@example.com'],
    ['MAIL_FROM', 'Team: a@example.com;'],
    ['REDIS_URL', 'memcached://x'],
    ['DEFAULT_REDIRECT_URL', '/relative'],
    ['LOCKOUT_THRESHOLD', '0'],
    ['LOCKOUT_MINUTES', '-1'],
    ['PASSWORD_HISTORY', '2.5'],
    ['PASSWORD_MAX_AGE_DAYS', 'never'],
    ['PASSWORD_MIN_SCORE', '5'],
    ['PASSWORD_MIN_SCORE', '-1'],
    ['PASSWORD_MIN_SCORE', 'strong'],
    ['PASSWORD_RESET_CODE_MINUTES', '0'],
    ['PASSWORD_RESET_CODE_MINUTES', '1441'],
    ['PASSWORD_EXPIRED_CODE_MINUTES', '15m'],
    ['PASSWORD_EXPIRED_CODE_MINUTES', '1441'],
    ['UNLOCK_CODE_MINUTES', '0'],
    ['UNLOCK_CODE_MINUTES', '1441'],
    ['EMAIL_CHANGE_CODE_HOURS', '0'],
    ['EMAIL_CHANGE_CODE_HOURS', '721'],
    ['VERIFY_USER_CODE_DAYS', '0'],
    ['VERIFY_USER_CODE_DAYS', '91'],
    ['TRUST_PROXY', 'perhaps'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', '-1'],
    ['TRUST_PROXY', '1.5'],
    ['TRUST_PROXY', '11'],
    ['TRUST_PROXY', '10.0.0.2'],
    ['LOG_LEVEL', 'verbose'],
    ['LOG_LEVEL', 'INFO'],
    ['SHUTDOWN_DRAIN_MS', '60001'],
    ['SHUTDOWN_DRAIN_MS', '5s'],
    ['DEMO', 'sometimes'],
    ['DEV_MAILBOX', 'maybe'],
    ['PUBLIC_HOST_ALIASES', 'https://login.example.com'],
    ['PUBLIC_HOST_ALIASES', 'login.example.com:443'],
    ['PUBLIC_HOST_ALIASES', 'ok.example.com,bad/path'],
    ['PUBLIC_HOST_ALIASES', 'user@host'],
    ['RESOURCE_SERVERS', '[{"identifier":"https://api.example/","scopes":["keycard:admin","x:read"]}]'],
    ['RESOURCE_SERVERS', '[{"identifier":"https://api.example/","scopes":["openid"]}]'],
    ['OIDC_KEY_RETAIN_MINUTES', '1439'],
    ['OIDC_KEY_RETAIN_MINUTES', '43201'],
    ['BACKCHANNEL_PRIVATE_NETWORKS', '10/8'],
    ['BACKCHANNEL_PRIVATE_NETWORKS', '10.0.0.0/33'],
    ['BACKCHANNEL_PRIVATE_NETWORKS', 'fd00::/129'],
    ['BACKCHANNEL_PRIVATE_NETWORKS', '10.0.0.0/8,internal.example'],
    ['BACKCHANNEL_PRIVATE_NETWORKS', '0x0a.0.0.1'],
    ['BACKCHANNEL_PRIVATE_NETWORKS', '10.0.0.0/8/8'],
    ['BACKCHANNEL_PRIVATE_NETWORKS', '10.0.0.0/8x'],
    ['BACKCHANNEL_PRIVATE_NETWORKS', '::ffff:0:0/95'],
    ['BACKCHANNEL_PRIVATE_NETWORKS', '10.0.0.0/x8'],
    ['FORGOT_PASSWORD_PER_ADDRESS', '0'],
    ['FORGOT_PASSWORD_PER_ADDRESS', '1001'],
    ['FORGOT_PASSWORD_PER_IP', '0'],
    ['FORGOT_PASSWORD_PER_IP', '100001'],
    ['FORGOT_PASSWORD_WINDOW_MINUTES', '0'],
    ['FORGOT_PASSWORD_WINDOW_MINUTES', '1441'],
    ['COOKIE_SECRETS', 'short-secret'],
    ['OIDC_JWKS', '{not json'],
    ['OIDC_JWKS', '{"keys":[{"kty":"EC","crv":"P-256","x":"a","y":"b"}]}'],
    ['OIDC_JWKS', '{"keys":[]}'],
    ['METRICS_PORT', '0'],
    ['METRICS_PORT', '3000'],
    ['METRICS_PORT', 'metrics'],
    ['METRICS_HOST', '0.0.0.0'],
    ['UV_THREADPOOL_SIZE', '0'],
    ['UV_THREADPOOL_SIZE', '1025'],
  ];

  it.each(bad)('names %s when it is %j', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}: `));
  });

  it('says which range a code lifetime must be in', () => {
    expect(problemsOf({ PASSWORD_RESET_CODE_MINUTES: '0' })).toEqual([
      'PASSWORD_RESET_CODE_MINUTES: must be a whole number from 1 to 1440',
    ]);
    expect(problemsOf({ EMAIL_CHANGE_CODE_HOURS: 'x' })).toEqual([
      'EMAIL_CHANGE_CODE_HOURS: must be a whole number from 1 to 720',
    ]);
    expect(problemsOf({ VERIFY_USER_CODE_DAYS: '-7' })).toEqual([
      'VERIFY_USER_CODE_DAYS: must be a whole number from 1 to 90',
    ]);
  });

  it('says what TRUST_PROXY may be', () => {
    expect(problemsOf({ TRUST_PROXY: 'all' })).toEqual([
      'TRUST_PROXY: must be true, false or the number of proxies in front, from 0 to 10',
    ]);
  });

  it('says which levels and how long a drain may be', () => {
    expect(problemsOf({ LOG_LEVEL: 'loud' })).toEqual([
      'LOG_LEVEL: must be one of silent, fatal, error, warn, info, debug, trace',
    ]);
    expect(problemsOf({ SHUTDOWN_DRAIN_MS: '-1' })).toEqual([
      'SHUTDOWN_DRAIN_MS: must be a whole number from 0 to 60000',
    ]);
  });

  it('lists every bad variable in one message and echoes no value', () => {
    const env = { PORT: 'x', TRUST_PROXY: 'maybe', COOKIE_SECRETS: 'too-short-but-secret' };
    const error = (() => {
      try {
        return loadConfig(env);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const name of Object.keys(env)) expect(message).toContain(`${name}:`);
    expect(message).not.toContain('too-short-but-secret');
  });

  it('refuses production without what DESIGN §2 Modes requires, naming each', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    // Spelled out, not read from the list the code uses: dropping one there must fail here.
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'PUBLIC_URL',
      'DATABASE_URL',
      'SMTP_URL',
      'COOKIE_SECRETS',
      'OIDC_JWKS',
    ]);
    expect(problems.every((p) => p.endsWith('required when NODE_ENV=production'))).toBe(true);
  });

  it('reports missing production variables together with bad ones', () => {
    const { SMTP_URL: _omitted, ...withoutSmtp } = PRODUCTION;
    const problems = problemsOf({ ...withoutSmtp, PORT: 'x' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['PORT', 'SMTP_URL']);
  });

  it('names a connection URL whose password has a bare %, which the drivers could not decode at start', () => {
    const problems = problemsOf({
      ...PRODUCTION,
      SMTP_URL: 'smtp://mailer:p%ss@smtp.example.com:587',
      DATABASE_URL: 'postgres://keycard:50%off@db.example.com/keycard',
      REDIS_URL: 'redis://:pass%2@cache.example.com:6379',
    });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['DATABASE_URL', 'REDIS_URL', 'SMTP_URL']);
    expect(problems.every((p) => p.includes('write % as %25'))).toBe(true);
    const encoded = loadConfig({ ...PRODUCTION, SMTP_URL: 'smtp://mailer:p%25ss%40x@smtp.example.com:587' });
    expect(encoded.smtpUrl).toBe('smtp://mailer:p%25ss%40x@smtp.example.com:587');
  });

  it("names each time bound of DATABASE_URL's query that is not whole milliseconds, and keeps those that are", () => {
    const problems = problemsOf({
      ...PRODUCTION,
      DATABASE_URL:
        'postgres://keycard@db.example.com/keycard?statement_timeout=30s&lock_timeout=-1&idle_in_transaction_session_timeout=2147483648',
    });
    expect(problems).toEqual([
      'DATABASE_URL: lock_timeout, statement_timeout, idle_in_transaction_session_timeout must each be given once, a whole number of milliseconds from 0 (none) to 2147483647, e.g. lock_timeout=30000',
    ]);
    // node-postgres would read 1e3 as 1 ms, and of a repeated parameter the last value: digits, once.
    expect(
      problemsOf({
        ...PRODUCTION,
        DATABASE_URL: 'postgres://db.example.com/keycard?statement_timeout=1&statement_timeout=x',
      }),
    ).toEqual([
      'DATABASE_URL: statement_timeout must be given once, a whole number of milliseconds from 0 (none) to 2147483647, e.g. statement_timeout=30000',
    ]);
    expect(
      problemsOf({ ...PRODUCTION, DATABASE_URL: 'postgres://db.example.com/keycard?lock_timeout=1e3' }),
    ).toEqual([
      'DATABASE_URL: lock_timeout must be given once, a whole number of milliseconds from 0 (none) to 2147483647, e.g. lock_timeout=30000',
    ]);
    const url =
      'postgres://keycard@db.example.com/keycard?statement_timeout=0&lock_timeout=2147483647&idle_in_transaction_session_timeout=60000&sslmode=require';
    expect(loadConfig({ ...PRODUCTION, DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it('forces the demo off in production', () => {
    const config = loadConfig({ ...PRODUCTION, DEMO: 'true' });
    expect(config).toMatchObject({ production: true, demo: false });
    expect(config.defaultRedirectUrl).toBe('https://login.example.com/');
  });
});

describe('SITE_FILE', () => {
  const custom = { ...defaultSite, siteCompany: 'Harbour Hotels Software GmbH' };

  it('replaces the shipped site values', () => {
    const config = loadConfig({ SITE_FILE: '/etc/keycard/site.json' }, () => JSON.stringify(custom));
    expect(config.site.siteCompany).toBe('Harbour Hotels Software GmbH');
  });

  it('takes a value per language beside plain strings, each resolved for its language', () => {
    const perLanguage = {
      ...custom,
      siteAddress: { en: 'Harbour Road 1, Hamburg, Germany', de: 'Hafenstraße 1, Hamburg, Deutschland' },
    };
    const config = loadConfig({ SITE_FILE: 'site.json' }, () => JSON.stringify(perLanguage));
    expect(siteTextsFor(config.site, 'de')).toMatchObject({
      siteAddress: 'Hafenstraße 1, Hamburg, Deutschland',
      siteCompany: 'Harbour Hotels Software GmbH',
    });
    expect(siteTextsFor(config.site, 'en')).toMatchObject({
      siteAddress: 'Harbour Road 1, Hamburg, Germany',
      siteCompany: 'Harbour Hotels Software GmbH',
    });
  });

  it.each([
    ['a language missing', { en: 'Harbour Road 1' }],
    ['an unknown language', { en: 'Harbour Road 1', de: 'Hafenstraße 1', fr: 'Rue du Port 1' }],
    ['an empty value', { en: 'Harbour Road 1', de: '' }],
    ['a number', 12],
  ])('refuses a site value with %s, naming the key and the accepted forms', (_case, siteAddress) => {
    const problems = problemsOf({ SITE_FILE: 'site.json' }, () => JSON.stringify({ ...custom, siteAddress }));
    expect(problems).toEqual([
      expect.stringMatching(
        /^SITE_FILE: .*siteAddress: must be a non-empty string or an object with a non-empty string for each of en, de/,
      ),
    ]);
  });

  it('is refused when unreadable, not JSON, incomplete or carrying unknown keys', () => {
    const { siteVat: _omitted, ...incomplete } = custom;
    const cases: readonly [() => string, RegExp][] = [
      [
        () => {
          throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
        },
        /cannot read .*ENOENT/,
      ],
      [() => '{', /not valid JSON/],
      [() => JSON.stringify(incomplete), /siteVat/],
      [() => JSON.stringify({ ...custom, siteLogo: 'x' }), /siteLogo: unknown key/],
    ];
    for (const [readText, expected] of cases) {
      const problems = problemsOf({ SITE_FILE: 'site.json' }, readText);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^SITE_FILE: /);
      expect(problems[0]).toMatch(expected);
    }
  });
});

describe('tracing (OTEL_*)', () => {
  const ENDPOINT = 'http://collector.example.com:4318';

  it('is off unless an OTLP endpoint is named, and off again when OTEL_SDK_DISABLED says so', () => {
    expect(tracingSettings({})).toBeUndefined();
    expect(
      tracingSettings({ OTEL_SERVICE_NAME: 'login', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }),
    ).toBeUndefined();
    expect(
      tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: 'true' }),
    ).toBeUndefined();
  });

  it('names the service keycard and exports OTLP over http/protobuf unless configured', () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT })).toEqual({
      serviceName: 'keycard',
      protocol: 'http/protobuf',
    });
    expect(
      tracingSettings({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${ENDPOINT}/v1/traces`,
        OTEL_SERVICE_NAME: 'login-eu',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }),
    ).toEqual({ serviceName: 'login-eu', protocol: 'http/json' });
  });

  it('refuses to start on a bad endpoint or protocol, and then does not trace either', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http' };
    expect(problemsOf(env)).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT: must be an http(s) URL',
      'OTEL_EXPORTER_OTLP_PROTOCOL: must be http/protobuf, http/json or grpc',
    ]);
    expect(tracingSettings(env)).toBeUndefined();
  });
});
