import { describe, expect, it } from 'vitest';
import { findLoginFailures } from '../src/accounts/account-repository.ts';
import { identifierHash } from '../src/accounts/identifiers.ts';
import { claimLoginFacts } from '../src/accounts/login-facts.ts';
import { databaseClock, manualClock } from '../src/store/clock.ts';
import { upstreamDomains, upstreamProviders } from '../src/store/tables/index.ts';
import { useTestDatabase } from './support/database.ts';
import { createAccount } from './support/oidc-flow.ts';

const testDb = useTestDatabase();
/** LOCKOUT_THRESHOLD and LOCKOUT_MINUTES of DESIGN §5, stated here as the rules they are. */
const POLICY = { threshold: 5, minutes: 60 };
const MINUTE = 60_000;

function attemptFacts(
  db: Parameters<typeof claimLoginFacts>[0],
  clock: Parameters<typeof claimLoginFacts>[1],
  email: string,
) {
  return claimLoginFacts(db, clock, email, POLICY);
}

async function bindDomain(domain: string): Promise<string> {
  const db = testDb().db;
  const [provider] = await db
    .insert(upstreamProviders)
    .values({
      name: `Upstream of ${domain}`,
      issuer: `https://${domain}/`,
      clientId: 'keycard',
      clientSecret: 'secret-0123456789',
      scopes: ['openid', 'email'],
    })
    .returning({ id: upstreamProviders.id });
  if (!provider) throw new Error('no provider row');
  await db.insert(upstreamDomains).values({ domain, providerId: provider.id });
  return provider.id;
}

describe('claimLoginFacts: one statement for what a sign-in is decided on, its claim included', () => {
  it('answers an unknown address with no account, no binding and the clock’s time', async () => {
    const clock = manualClock();
    const facts = await attemptFacts(testDb().db, clock, 'Nobody@Facts.Example');
    expect(facts).toEqual({
      now: await clock.now(),
      identifierHash: identifierHash('nobody@facts.example'),
      account: null,
      upstreamProviderId: null,
      claim: { admitted: true, locks: false, lockedAt: null },
    });
  });

  it('reads the account by its normalised address and the domain’s binding together', async () => {
    const db = testDb().db;
    const account = await createAccount(db, 'ada@bound-facts.example', 'Correct-Horse-42');
    const providerId = await bindDomain('bound-facts.example');
    const facts = await attemptFacts(db, manualClock(), '  ADA@Bound-Facts.Example ');
    expect(facts.identifierHash).toBe(identifierHash('ada@bound-facts.example'));
    expect(facts.account?.id).toBe(account.id);
    expect(facts.account?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(facts.upstreamProviderId).toBe(providerId);
  });

  it('finds a binding stored in IDNA form from a Unicode domain, and none for an address without a domain', async () => {
    const providerId = await bindDomain('xn--bcher-kva.example');
    const clock = manualClock();
    expect((await attemptFacts(testDb().db, clock, 'leser@bücher.example')).upstreamProviderId).toBe(
      providerId,
    );
    expect((await attemptFacts(testDb().db, clock, 'no-domain')).upstreamProviderId).toBeNull();
  });

  it('takes the time from the database clock in the same statement', async () => {
    const before = Date.now();
    const { now } = await attemptFacts(testDb().db, databaseClock(testDb().db), 'clock@facts.example');
    // The database rounds up to the next millisecond; same machine, so within a few seconds of ours.
    expect(now.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    expect(now.getTime()).toBeLessThanOrEqual(Date.now() + 5_000);
  });

  it('counts the attempt at the time it answers, and takes the lock at the 5th for 60 minutes from then', async () => {
    const db = testDb().db;
    const clock = manualClock();
    const email = 'counted@facts.example';
    const id = identifierHash(email);
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect((await attemptFacts(db, clock, email)).claim).toEqual({
        admitted: true,
        locks: false,
        lockedAt: null,
      });
      expect((await findLoginFailures(db, id))?.failureCount).toBe(attempt);
      clock.advance(MINUTE);
    }
    const fifth = await attemptFacts(db, clock, email);
    expect(fifth.claim).toEqual({ admitted: true, locks: true, lockedAt: fifth.now });
    const row = await findLoginFailures(db, id);
    expect(row?.failureCount).toBe(5);
    expect(row?.lockedAt).toEqual(fifth.now);
    expect(row?.updatedAt).toEqual(fifth.now);
    expect(row?.lockedUntil).toEqual(new Date(fifth.now.getTime() + 60 * MINUTE));
  });

  it('admits nothing and counts nothing while locked, and starts afresh once 60 minutes are up', async () => {
    const db = testDb().db;
    const clock = manualClock();
    const email = 'locked@facts.example';
    const id = identifierHash(email);
    for (let attempt = 1; attempt <= 5; attempt++) await attemptFacts(db, clock, email);
    clock.advance(60 * MINUTE - 1000);
    expect((await attemptFacts(db, clock, email)).claim).toEqual({ admitted: false });
    expect((await findLoginFailures(db, id))?.failureCount).toBe(5);
    clock.advance(1000);
    expect((await attemptFacts(db, clock, email)).claim).toEqual({
      admitted: true,
      locks: false,
      lockedAt: null,
    });
    expect(await findLoginFailures(db, id)).toMatchObject({
      failureCount: 1,
      lockedAt: null,
      lockedUntil: null,
    });
  });

  it('with a threshold of 1 locks at the first attempt, and with 0 minutes for good', async () => {
    const db = testDb().db;
    const clock = manualClock();
    const email = 'first@facts.example';
    const first = await claimLoginFacts(db, clock, email, { threshold: 1, minutes: 0 });
    expect(first.claim).toEqual({ admitted: true, locks: true, lockedAt: first.now });
    expect(await findLoginFailures(db, identifierHash(email))).toMatchObject({
      failureCount: 1,
      lockedAt: first.now,
      lockedUntil: null,
    });
    clock.advance(365 * 24 * 60 * MINUTE);
    expect((await claimLoginFacts(db, clock, email, { threshold: 1, minutes: 0 })).claim).toEqual({
      admitted: false,
    });
  });

  it('stamps the claim with the database clock’s reading it answers', async () => {
    const db = testDb().db;
    const email = 'stamped@facts.example';
    const { now } = await claimLoginFacts(db, databaseClock(db), email, { threshold: 1, minutes: 60 });
    expect(await findLoginFailures(db, identifierHash(email))).toMatchObject({
      lockedAt: now,
      updatedAt: now,
      lockedUntil: new Date(now.getTime() + 60 * MINUTE),
    });
  });
});
