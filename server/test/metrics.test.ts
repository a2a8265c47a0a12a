import { loginResponse } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setMustChangePassword } from '../src/accounts/account-repository.ts';
import { createMetrics } from '../src/metrics/metrics.ts';
import { listenForScrapes, type MetricsListener } from '../src/metrics/metrics-listener.ts';
import {
  localPart,
  PEOPLE,
  redirectPath,
  startRegisteredUpstream,
  UpstreamBrowser,
} from './federation-kit.ts';
import { type SmtpSink, startSmtpSink } from './mail-sink.ts';
import { codeOf, linkIn } from './recovery-kit.ts';
import { buildTestApp, testConfig } from './support/app.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import {
  createAccount,
  redeemCode,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { outboxMails } from './support/outbox.ts';
import type { UpstreamIdp } from './support/upstream-idp.ts';

/**
 * Issue 17 item 4: the Prometheus metrics after real traffic. One app on its own database, with the
 * metrics main.ts would give it (its pool included), drives sign-ins of every outcome, a lockout,
 * mail through a real SMTP server that accepts, defers and rejects, and a federated sign-in; then
 * Prometheus's view of it is read from the metrics listener and checked family by family, and for
 * anything personal in it.
 */

/** The lockout threshold of this file, crossed by the third wrong password. */
const LOCKOUT_THRESHOLD = 3;
const PASSWORD = 'Correct-Horse-42';
const ADA = 'ada.metrics@example.com';
const BOB = 'bob.metrics@example.com';
const EVE = 'eve.metrics@example.com';

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The samples of a Prometheus text exposition (version 0.0.4), comments left out. */
function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not an exposition line: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
        labels[key as string] = value as string;
      }
      return { name: match[1] as string, labels, value: Number(match[3]) };
    });
}

/** The samples of one name whose labels include `labels`. */
function samplesOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}) {
  return samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

/** The one sample of a name and labels; fails when there is none or more than one. */
function sampleValue(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samplesOf(samples, name, labels);
  if (found.length !== 1) {
    throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  }
  return (found[0] as Sample).value;
}

let database: TestDatabase;
let app: FastifyInstance;
let listener: MetricsListener;
let sink: SmtpSink;
let idp: UpstreamIdp;
let providerId: string;
/** Everything a label must never carry: addresses, codes, tokens, interaction ids, the client's IP. */
const secrets: string[] = [ADA, BOB, EVE, PEOPLE.ada.email, PASSWORD, '127.0.0.1'];

beforeAll(async () => {
  // Deferred once (451) at the second message, rejected for good (550) at the third.
  sink = await startSmtpSink({
    answer: (attempt) =>
      attempt === 2
        ? { code: 451, message: 'Try later' }
        : attempt === 3
          ? { code: 550, message: 'No such mailbox' }
          : 'accept',
  });
  database = await createTestDatabase();
  const { db } = database.database;
  app = await buildTestApp(db, {
    env: { LOCKOUT_THRESHOLD: String(LOCKOUT_THRESHOLD), SMTP_URL: sink.url },
    metrics: createMetrics({ database: database.database, threadPoolSize: 4 }),
  });
  listener = await listenForScrapes(app.metrics, { host: '127.0.0.1', port: 0 });
  await registerTestClient(db);
  await createAccount(db, ADA, PASSWORD);
  await createAccount(db, BOB, PASSWORD);
  const eve = await createAccount(db, EVE, PASSWORD);
  await setMustChangePassword(db, eve.id);
  ({ idp, providerId } = await startRegisteredUpstream(db));
});

afterAll(async () => {
  await listener?.close();
  await app?.close();
  await idp?.close();
  await sink?.close();
  await database?.dispose();
});

async function scrape(path = '/metrics', method = 'GET') {
  return fetch(`http://127.0.0.1:${listener.address.port}${path}`, { method });
}

/** A browser at the sign-in page of a live authorization request; its interaction id is a secret. */
async function atSignIn() {
  const browser = new TestBrowser(app);
  const auth = await startAuthorization(browser);
  await browser.loadSpa();
  secrets.push(auth.returnUrl.split('/')[3]?.split('?')[0] ?? auth.returnUrl);
  return { browser, auth };
}

async function signIn(browser: TestBrowser, returnUrl: string, email: string, password: string) {
  const response = await browser.post('/api/login', {
    Username: email,
    Password: password,
    ReturnUrl: returnUrl,
  });
  expect(response.statusCode).toBe(200);
  return loginResponse.parse(response.json());
}

/** Asks for a reset mail and lets the worker try to deliver what is due. */
async function forgotPassword(browser: TestBrowser, email: string) {
  expect(
    (await browser.post('/api/forgotpassword', { email, returnUrl: null, locationSearch: '' })).statusCode,
  ).toBe(200);
  await app.mail.runOnce();
}

/** Traffic of every outcome the families count, each step checked as it goes. */
async function driveEveryOutcome(): Promise<void> {
  // A sign-in to the end: ID token and all.
  const ada = await atSignIn();
  const success = await signIn(ada.browser, ada.auth.returnUrl, ADA, PASSWORD);
  expect(success.isAuthenticated).toBe(true);
  const code = await resumeToCode(ada.browser, success.redirectUrl ?? '');
  const tokens = await redeemCode(app, code, ada.auth.verifier);
  secrets.push(code, tokens.access_token, tokens.id_token);

  // The first message is accepted: a reset link, opened once (the SPA's page, whatever its build).
  await forgotPassword(ada.browser, ADA);
  const [reset] = await outboxMails(database.database.db, 'password_reset', ADA);
  expect(sink.received).toHaveLength(1);
  const resetLink = linkIn(sink.received[0]?.parsed.text ?? '');
  secrets.push(codeOf(resetLink));
  await ada.browser.get(new URL(resetLink).pathname);
  expect(reset?.sentAt).not.toBeNull();

  // Three wrong passwords lock Bob; the fourth attempt, right password and all, is refused as locked.
  const bob = await atSignIn();
  for (let n = 1; n <= LOCKOUT_THRESHOLD; n++)
    await signIn(bob.browser, bob.auth.returnUrl, BOB, 'Wrong-Horse-1');
  const locked = await signIn(bob.browser, bob.auth.returnUrl, BOB, PASSWORD);
  expect(locked.verificationType).toBe(3);
  // The lock's unlock mail is the second message: deferred (451), so it waits for its retry.
  await app.mail.runOnce();

  // Eve's password is right but must be changed: answered with a code.
  const eve = await atSignIn();
  const expired = await signIn(eve.browser, eve.auth.returnUrl, EVE, PASSWORD);
  expect(expired.verificationType).toBe(2);
  secrets.push(expired.verificationCode ?? '');
  // The third message is rejected for good (550).
  await forgotPassword(eve.browser, EVE);

  // Signed in upstream.
  const upstream = await atSignIn();
  const redirect = await upstream.browser.get(
    redirectPath(upstream.auth.returnUrl, providerId, PEOPLE.ada.email),
  );
  const callback = await new UpstreamBrowser().signIn(String(redirect.headers.location), PEOPLE.ada);
  secrets.push(new URL(callback).searchParams.get('code') ?? callback);
  expect((await upstream.browser.get(localPart(callback))).statusCode).toBe(302);

  expect(sink.received).toHaveLength(1);
}

describe('metrics after real traffic (issue 17)', () => {
  // In one test: a mutation of what counts the traffic must fail the test that drives it.
  it('drives every outcome the families count and exposes each family with the counts of that traffic', async () => {
    await driveEveryOutcome();
    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parseExposition(await response.text());
    const count = (route: string, method: string, status: string) =>
      sampleValue(samples, 'keycard_http_request_duration_seconds_count', { route, method, status });

    // HTTP, by route pattern and status, with latency buckets.
    expect(count('/api/login', 'POST', '200')).toBe(6);
    expect(count('/api/forgotpassword', 'POST', '200')).toBe(2);
    expect(count('/oidc/auth', 'GET', '303')).toBe(4);
    expect(count('/oidc/token', 'POST', '200')).toBe(1);
    expect(count('/api/ExternalIdentityProviderCallback', 'GET', '302')).toBe(1);
    expect(
      samplesOf(samples, 'keycard_http_request_duration_seconds_count', { route: '/oidc/auth/:uid' }),
    ).not.toEqual([]);
    expect(
      samplesOf(samples, 'keycard_http_request_duration_seconds_count', { route: 'fallback', method: 'GET' }),
    ).toHaveLength(1);
    const loginBuckets = samplesOf(samples, 'keycard_http_request_duration_seconds_bucket', {
      route: '/api/login',
    });
    expect(loginBuckets.find((bucket) => bucket.labels.le === '+Inf')?.value).toBe(6);
    expect(
      sampleValue(samples, 'keycard_http_request_duration_seconds_sum', {
        route: '/api/login',
        method: 'POST',
        status: '200',
      }),
    ).toBeGreaterThan(0);

    // Sign-ins by outcome, and the one lock.
    const signIns = (outcome: string) => sampleValue(samples, 'keycard_sign_ins_total', { outcome });
    expect([
      signIns('success'),
      signIns('wrong'),
      signIns('locked'),
      signIns('expired'),
      signIns('federated'),
    ]).toEqual([1, 3, 1, 1, 1]);
    expect(sampleValue(samples, 'keycard_lockouts_total')).toBe(1);

    // One argon2 verification per password attempt, the locked one included (the dummy hash).
    expect(sampleValue(samples, 'keycard_argon2_verification_seconds_count')).toBe(6);
    expect(sampleValue(samples, 'keycard_argon2_verification_seconds_sum')).toBeGreaterThan(0);
    expect(sampleValue(samples, 'keycard_argon2_queue_wait_seconds_count')).toBe(6);
    expect(sampleValue(samples, 'keycard_argon2_queue_length')).toBe(0);

    // Mail: one sent, one deferred and pending again, one rejected and failed.
    expect(sampleValue(samples, 'keycard_mail_sent_total')).toBe(1);
    expect(sampleValue(samples, 'keycard_mail_retries_total')).toBe(1);
    expect(sampleValue(samples, 'keycard_mail_failed_total', { reason: 'rejected' })).toBe(1);
    expect(sampleValue(samples, 'keycard_mail_failed_total', { reason: 'attempts' })).toBe(0);
    expect(sampleValue(samples, 'keycard_mail_outbox_messages', { state: 'pending' })).toBe(1);
    expect(sampleValue(samples, 'keycard_mail_outbox_messages', { state: 'failed' })).toBe(1);
    const oldest = sampleValue(samples, 'keycard_mail_outbox_oldest_pending_seconds');
    expect(oldest).toBeGreaterThanOrEqual(0);
    expect(oldest).toBeLessThan(60);

    // The database's connections: PGlite's one, or the PostgreSQL pool of open/open-database.ts.
    if (database.kind === 'pglite') {
      expect(sampleValue(samples, 'keycard_db_pool_max_connections')).toBe(1);
    } else {
      expect(sampleValue(samples, 'keycard_db_pool_max_connections')).toBe(10);
      const busy = sampleValue(samples, 'keycard_db_pool_connections', { state: 'busy' });
      const idle = sampleValue(samples, 'keycard_db_pool_connections', { state: 'idle' });
      expect(busy + idle).toBeGreaterThanOrEqual(1);
      expect(busy + idle).toBeLessThanOrEqual(10);
      expect(sampleValue(samples, 'keycard_db_pool_waiting_queries')).toBe(0);
    }

    // The process: memory and event-loop delay (prom-client's default metrics).
    expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sampleValue(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(sampleValue(samples, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);
  });

  it('carries no address, password, code, token, interaction id or IP, in labels or anywhere', async () => {
    const text = await (await scrape()).text();
    expect(secrets.filter((secret) => secret === '')).toEqual([]);
    for (const secret of secrets) expect(text).not.toContain(secret);
    const labelValues = parseExposition(text).flatMap((sample) => Object.values(sample.labels));
    // No address and no id (interaction ids and outbox rows are UUIDs or longer).
    for (const value of labelValues) expect(value).not.toMatch(/@|[0-9a-f]{8}-[0-9a-f]{4}/i);
    const routes = new Set(
      samplesOf(parseExposition(text), 'keycard_http_request_duration_seconds_count').map(
        (sample) => sample.labels.route,
      ),
    );
    for (const route of routes) expect(route).toMatch(/^(fallback|\/[\w./:*-]*)$/);
  });

  it('answers only GET and HEAD of /metrics on its listener', async () => {
    expect((await scrape('/')).status).toBe(404);
    expect((await scrape('/metrics/../api/login')).status).toBe(404);
    const post = await scrape('/metrics', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await scrape('/metrics', 'HEAD')).status).toBe(200);
  });
});

describe('metrics off by default', () => {
  it('has no metrics listener without METRICS_PORT, and the service does not answer /metrics', async () => {
    expect(testConfig().metricsListener).toBeUndefined();
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.body).not.toContain('keycard_');
    expect(response.body).not.toContain('# HELP');
  });
});
