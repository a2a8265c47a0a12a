import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ADMIN_API_BASE, ADMIN_SCOPE, VerificationType } from '@keycard/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { failureCount } from '../src/accounts/account-repository.ts';
import { identifierHash } from '../src/accounts/identifiers.ts';
import { MIGRATIONS_FOLDER } from '../src/store/migrate.ts';
import { rowsOf } from '../src/store/rows.ts';
import { ADMIN_CLIENT, ADMIN_SECRET, registerAdminClient } from './admin-api-kit.ts';
import { MOVED_URI } from './support/client-moves.ts';
import { type Fleet, type Instance, startFleet } from './support/fleet.ts';
import { accountForCodes, accountForMail, leasedMessages } from './support/fleet-accounting.ts';
import { FleetBrowser, Tally } from './support/fleet-browser.ts';
import {
  forgotPassword,
  login,
  type Mailbox,
  mailedCode,
  openSignInPage,
  redeem,
  resetPassword,
  signIn,
  signInToCode,
  signOut,
  unlock,
} from './support/fleet-flows.ts';
import { emptyCounts, type LoadSettings, newPassword, type Person, underLoad } from './support/fleet-load.ts';
import {
  authorizationRequest,
  createAccount,
  REDIRECT_URI,
  registerTestClient,
} from './support/oidc-flow.ts';

/**
 * Issue 17 items 1 and 2: three instances of the compiled service in production mode on one fresh
 * PostgreSQL database, one Redis and one SMTP server, behind Debian's HAProxy configured as
 * OPERATIONS.md's "Running a fleet" says (round-robin, no stickiness, health checks on
 * GET /health/ready). Simulated people sign in, reset, lock and unlock through it while instances are
 * killed and restarted. vitest.config.ts runs this file on the PostgreSQL pass only.
 */

/** LOCKOUT_THRESHOLD and RATE_LIMIT_PER_MINUTE of the fleet. */
const THRESHOLD = 5;
const PER_MINUTE = 300;
const PEOPLE = 5;
const PASSWORD = 'Fleet-Correct-Horse-42';

let fleet: Fleet;
const db = () => fleet.database.database.db;
const tally = new Tally();
const counts = emptyCounts();
/** Messages leased when the instance was killed: whatever of them is still unsent, the dead worker held. */
let leasedAtTheKill = new Set<string>();
const people: Person[] = Array.from({ length: PEOPLE }, (_, index) => ({
  email: `fleet-person-${index + 1}@example.com`,
  password: PASSWORD,
}));

/** A loopback address of its own for each browser (127.0.0.0/8 all reaches HAProxy): per-IP limits count them apart. */
const ipBase = 20 + ((randomBytes(1)[0] ?? 0) % 200);
let ips = 0;
function freshIp(): string {
  ips += 1;
  return `127.${ipBase}.${Math.floor(ips / 254)}.${(ips % 254) + 1}`;
}
const browsers: FleetBrowser[] = [];
function browser(headers: Record<string, string> = {}): FleetBrowser {
  const opened = new FleetBrowser(fleet.publicUrl, freshIp(), tally, headers);
  browsers.push(opened);
  return opened;
}
const mailbox = (): Mailbox => ({ sink: fleet.sink, waitMs: 12_000 });

/**
 * Runs `send` on the quiet fleet and answers which instances its requests went to, from HAProxy's
 * per-server request counters.
 */
async function servedBy<T>(send: () => Promise<T>): Promise<{ answer: T; instances: string[] }> {
  const before = await fleet.balancer.stats();
  const answer = await send();
  const instances: string[] = [];
  for (const server of (await fleet.balancer.stats()).values()) {
    const more = server.total - (before.get(server.name)?.total ?? 0);
    for (let count = 0; count < more; count++) instances.push(server.name);
  }
  return { answer, instances };
}

/** Two browsers use the same thing at the same moment; each loaded the SPA before. */
async function race(use: (browser: FleetBrowser) => Promise<boolean>) {
  const pair = [browser(), browser()];
  for (const each of pair) await each.loadSpa();
  const { answer, instances } = await servedBy(() => Promise.all(pair.map(use)));
  return { winners: answer.filter(Boolean).length, instances: new Set(instances).size, answer };
}

beforeAll(async () => {
  fleet = await startFleet({
    size: 3,
    env: {
      LOCKOUT_THRESHOLD: String(THRESHOLD),
      RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
      // Long enough for HAProxy (a probe every 200 ms here, two failed ones) to stop sending, with room
      // to spare on a busy machine; production's 5 s suits the recipe's probe every second.
      SHUTDOWN_DRAIN_MS: '2000',
      // The simulated people ask for many resets; the per-address limit is not under test here.
      FORGOT_PASSWORD_PER_ADDRESS: '1000',
    },
  });
  await registerTestClient(db());
  for (const person of people) await createAccount(db(), person.email, PASSWORD);
}, 120_000);
afterAll(async () => {
  for (const opened of browsers) opened.close();
  await fleet?.stop();
});

describe('a fleet of three instances behind HAProxy', () => {
  it('started at the same moment on an empty database, migrate it once and all come up', async () => {
    const journal = JSON.parse(await readFile(`${MIGRATIONS_FOLDER}/meta/_journal.json`, 'utf8')) as {
      entries: unknown[];
    };
    const [applied] = rowsOf<{ rows: number; distinct: number }>(
      await db().execute(
        sql`select count(*)::int as rows, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations`,
      ),
    );
    expect(applied).toEqual({ rows: journal.entries.length, distinct: journal.entries.length });
    for (const instance of fleet.instances) expect(await fleet.isUp(instance)).toBe(true);
  });

  it('sends the consecutive requests of one browser to the next instance each, a sign-in across all three', async () => {
    const one = browser({ 'x-request-id': 'f00d'.repeat(8) });
    const turns: string[] = [];
    for (let request = 0; request < 3; request++) {
      const { answer, instances } = await servedBy(() => one.get('/api/getcsrftoken'));
      turns.push(...instances);
      // HAProxy's id for the request, not the client's, is the one Keycard logs and answers.
      expect(answer.headers['x-request-id']).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    }
    expect(new Set(turns).size).toBe(3);
    const { instances } = await servedBy(async () =>
      signOut(one, await signIn(one, 'fleet-person-1@example.com', PASSWORD)),
    );
    expect(new Set(instances).size).toBe(3);
  });

  it('counts wrong passwords on every instance towards one lock, exactly at LOCKOUT_THRESHOLD 5', async () => {
    const email = 'fleet-lock@example.com';
    await createAccount(db(), email, PASSWORD);
    const from = fleet.sink.received.length;
    // The address it claims is not believed: HAProxy sets X-Forwarded-For to the one it connects from.
    const person = browser({ 'x-forwarded-for': '203.0.113.9' });
    const { returnUrl } = await openSignInPage(person);
    const wrong = () => servedBy(() => login(person, email, 'Not-The-Password-1', returnUrl));
    const served: string[] = [];
    const counted: number[] = [];
    for (let attempt = 1; attempt < 5; attempt++) {
      const { answer, instances } = await wrong();
      expect(answer.verificationType).toBe(VerificationType.None);
      served.push(...instances);
      counted.push(await failureCount(db(), identifierHash(email)));
    }
    expect(counted).toEqual([1, 2, 3, 4]);
    const fifth = await wrong();
    served.push(...fifth.instances);
    expect(fifth.answer.verificationType).toBe(VerificationType.LockedAfterTooManyFailedAttempts);
    expect(new Set(served).size).toBe(3);
    const right = await login(person, email, PASSWORD, returnUrl);
    expect(right.verificationType).toBe(VerificationType.LockedAfterTooManyFailedAttempts);
    const audited = rowsOf<{ ip: string }>(
      await db().execute(sql`
        select distinct audit_event.ip from audit_event join account on account.id = audit_event.account_id
        where account.email = ${email}`),
    );
    expect(audited).toEqual([{ ip: person.ip }]);

    // The one unlock mail's code, opened at the same moment on two instances: both see the success
    // (an unlock is idempotent, DESIGN §2 Codes), one of them spent the code and unlocked.
    const code = await mailedCode(mailbox(), email, 'unlock', from);
    const raced = await race((each) => unlock(each, code));
    expect(raced).toMatchObject({ winners: 2, instances: 2 });
    expect(await accountForCodes(db(), [code])).toMatchObject({ usedNotSpent: 0, unlocksRecorded: 1 });
    counts.unlockCodes.push(code);
    expect(await signIn(browser(), email, PASSWORD)).toBeTruthy();
  });

  it('spends a reset code and an authorization code once when two instances race for them', async () => {
    const email = 'fleet-race@example.com';
    await createAccount(db(), email, PASSWORD);
    const code = await forgotPassword(browser(), mailbox(), email);
    const passwords = [newPassword(), newPassword()];
    let turn = 0;
    const raced = await race((each) => resetPassword(each, code, passwords[turn++] ?? ''));
    expect(raced).toMatchObject({ winners: 1, instances: 2 });
    counts.resetCodes.push(code);
    const winner = passwords[raced.answer.indexOf(true)] ?? '';

    const signedIn = browser();
    const { code: authorizationCode, verifier } = await signInToCode(signedIn, email, winner);
    const redeemed = await servedBy(() =>
      Promise.all([
        redeem(browser(), authorizationCode, verifier),
        redeem(browser(), authorizationCode, verifier),
      ]),
    );
    expect(redeemed.answer.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(new Set(redeemed.instances).size).toBe(2);
  });

  it('follows a client changed through the admin API on every instance, without waiting out the cache', async () => {
    const one = browser();
    /** Three authorization requests, one per instance (round-robin): which instances took the URI. */
    const takenBy = async (redirectUri: string) => {
      const taken = new Set<string>();
      for (let turn = 0; turn < 3; turn++) {
        const { path } = authorizationRequest({ redirect_uri: redirectUri });
        const { answer, instances } = await servedBy(() => one.get(path));
        const location = new URL(String(answer.headers.location), fleet.publicUrl);
        if (answer.status === 303 && location.searchParams.has('ReturnUrl')) taken.add(String(instances[0]));
      }
      return taken.size;
    };
    // Changed through the admin API, which answers on one instance: the other two hear of it.
    await registerAdminClient(db());
    const basic = Buffer.from(`${ADMIN_CLIENT}:${ADMIN_SECRET}`).toString('base64');
    const token = await fetch(`${fleet.publicUrl}/oidc/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: ADMIN_SCOPE }),
    }).then((answer) => answer.json() as Promise<{ access_token: string }>);
    const moveTo = async (uri: string) => {
      const answer = await fetch(`${fleet.publicUrl}${ADMIN_API_BASE}/clients/planner`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ redirectUris: [uri] }),
      });
      expect(answer.status).toBe(200);
    };
    // Every instance reads the registration and keeps it (oidc/client-cache.ts, 30 s at most).
    expect(await takenBy(REDIRECT_URI)).toBe(3);
    await moveTo(MOVED_URI);
    // Each instance hears the change the moment it commits (a few ms): well inside 5 s, far inside 30.
    await vi.waitFor(async () => expect(await takenBy(MOVED_URI)).toBe(3), { timeout: 5_000, interval: 50 });
    expect(await takenBy(REDIRECT_URI)).toBe(0);
    await moveTo(REDIRECT_URI);
    await vi.waitFor(async () => expect(await takenBy(REDIRECT_URI)).toBe(3), {
      timeout: 5_000,
      interval: 50,
    });
  });

  it('shares the per-IP request limit through Redis: 300 a minute over all three instances, then 429', async () => {
    const client = browser();
    const { answer: statuses, instances } = await servedBy(async () => {
      const answers: number[] = [];
      for (let batch = 0; batch < PER_MINUTE / 20; batch++) {
        const sent = Array.from({ length: 20 }, () => client.get('/api/getcsrftoken'));
        answers.push(...(await Promise.all(sent)).map((answer) => answer.status));
      }
      return answers;
    });
    expect(statuses.filter((status) => status === 200)).toHaveLength(300);
    const perInstance = fleet.instances.map(
      (instance) => instances.filter((name) => name === instance.name).length,
    );
    // Each instance saw a third: alone, none would have reached the limit.
    for (const seen of perInstance) expect(seen).toBeLessThan(PER_MINUTE / 2);
    expect((await client.get('/api/getcsrftoken')).status).toBe(429);
  });
});

// In the written order, whatever the run's shuffle: one load run in three steps, the last of which
// accounts for the mail and codes of the two before it (a fleet is too dear to start for each).
describe('the fleet under load', { shuffle: false }, () => {
  /** The simulated people against this fleet; `killedSince` tells them when mail may be held by the dead. */
  const load = (killedSince: (since: number) => boolean = () => false): LoadSettings => ({
    origin: fleet.publicUrl,
    people,
    mailbox: mailbox(),
    tally,
    ip: freshIp,
    threshold: THRESHOLD,
    killedSince,
  });

  const served = async (instance: Instance) => (await fleet.balancer.stats()).get(instance.name)?.total ?? 0;

  it('keeps every flow going while an instance is killed (SIGKILL) and started again; lost answers are sent again', async () => {
    const victim = fleet.instances[1] as Instance;
    let killedAt = Number.POSITIVE_INFINITY;
    const lostBefore = tally.lostAnswers;
    await underLoad(
      load((since) => killedAt >= since),
      counts,
      async (running) => {
        await running.flows(PEOPLE);
        // Stopped first, so that requests are in flight on it when it dies: HAProxy sends it its share
        // until its health checks time out.
        victim.process.child.kill('SIGSTOP');
        await fleet.balancer.waitFor(
          (stats) => (stats.get(victim.name)?.current ?? 0) > 0,
          'a request in flight',
        );
        killedAt = Date.now();
        victim.process.child.kill('SIGKILL');
        await victim.process.exited();
        leasedAtTheKill = await leasedMessages(db());
        await running.flows(PEOPLE);

        await fleet.restart(victim);
        const before = await served(victim);
        await running.flows(PEOPLE);
        await fleet.balancer.waitFor(
          (stats) => (stats.get(victim.name)?.total ?? 0) > before,
          'requests on the restarted instance',
        );
      },
    );
    // Each request in flight on the killed instance failed, and its second sending succeeded.
    expect(tally.lostAnswers - lostBefore).toBeGreaterThan(0);
  }, 120_000);

  it('loses no request while every instance is restarted in turn (SIGTERM, exit, start)', async () => {
    const lostBefore = tally.lostAnswers;
    const interruptedBefore = counts.interrupted;
    const before = await fleet.balancer.stats();
    await underLoad(load(), counts, async (running) => {
      await running.flows(PEOPLE);
      for (const instance of fleet.instances) {
        // The drain: GET /health/ready answers 503 while requests are still served, HAProxy stops
        // sending, then the instance closes and exits.
        instance.process.child.kill('SIGTERM');
        expect(await instance.process.exited()).toBe(0);
        await fleet.restart(instance);
        await running.flows(2);
      }
    });
    expect(tally.lostAnswers - lostBefore).toBe(0);
    expect(counts.interrupted - interruptedBefore).toBe(0);
    for (const server of (await fleet.balancer.stats()).values()) {
      const earlier = before.get(server.name);
      const more = (field: 'serverErrors' | 'responseErrors' | 'connectionErrors' | 'redispatches') =>
        server[field] - (earlier?.[field] ?? 0);
      // Not one answer made up by HAProxy, nor one cut off by an instance; and not one connection
      // refused: HAProxy stopped sending (the drain's 503 on /health/ready) before each stopped
      // listening, and sent again only once each passed its probes.
      expect([more('serverErrors'), more('responseErrors')]).toEqual([0, 0]);
      expect([more('connectionErrors'), more('redispatches')]).toEqual([0, 0]);
    }
  }, 120_000);

  it('delivered every queued mail once and spent every used code once', async () => {
    const mail = await accountForMail(db(), fleet.sink, leasedAtTheKill);
    const codes = await accountForCodes(db(), [...counts.resetCodes, ...counts.unlockCodes]);
    const completed = Object.values(counts.completed).reduce((sum, count) => sum + count, 0);
    const servers = [...(await fleet.balancer.stats()).values()];
    const sum = (field: 'retries' | 'redispatches') =>
      servers.reduce((total, server) => total + server[field], 0);
    console.log(
      [
        `fleet: ${completed} flows completed (${JSON.stringify(counts.completed)}),`,
        `${counts.interrupted} cut off by a lost answer and recovered,`,
        `${tally.requests} requests, ${tally.lostAnswers} failed in flight and succeeded when sent again`,
        `(HAProxy: ${sum('retries')} connections refused and tried again, ${sum('redispatches')} on another instance);`,
        `mail: ${mail.queued} queued, ${mail.sent} sent, ${mail.received} received, ${mail.receivedTwice} twice,`,
        `${mail.leasedByTheDead} held by a killed worker;`,
        `codes: ${counts.resetCodes.length} reset and ${counts.unlockCodes.length} unlock codes used,`,
        `${codes.spent} spent in the database, ${counts.secondUsesAccepted} taken twice,`,
        `${codes.unlocksRecorded} unlocks recorded`,
      ].join(' '),
    );
    // Every kind of flow ran to its end under load, each step answered as the flow needs.
    for (const finished of Object.values(counts.completed)) expect(finished).toBeGreaterThan(0);
    expect(mail).toMatchObject({ failed: 0, receivedTwice: 0, sentNotReceived: 0, receivedUnknown: 0 });
    // A worker claims one message at a time: the one killed instance held at most one.
    expect(mail.leasedByTheDead).toBeLessThanOrEqual(1);
    expect(mail.sent + mail.leasedByTheDead).toBe(mail.queued);
    expect(mail.received - mail.sent).toBeGreaterThanOrEqual(0);
    expect(mail.received - mail.sent).toBeLessThanOrEqual(mail.leasedByTheDead);
    expect(codes.usedNotSpent).toBe(0);
    expect(counts.secondUsesAccepted).toBe(0);
    expect(codes.unlocksRecorded).toBe(counts.unlockCodes.length);
    expect(codes.spent).toBeGreaterThanOrEqual(counts.resetCodes.length + counts.unlockCodes.length);
    // Every person signs in with the password they set last.
    for (const person of people) expect(await signIn(browser(), person.email, person.password)).toBeTruthy();
  });
});
