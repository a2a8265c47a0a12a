import { describe, expect, it } from 'vitest';
import { identifierHash } from '../src/accounts/identifiers.ts';
import { readLoginFacts } from '../src/accounts/login-facts.ts';
import { databaseClock, manualClock } from '../src/store/clock.ts';
import { upstreamDomains, upstreamProviders } from '../src/store/tables/index.ts';
import { useTestDatabase } from './support/database.ts';
import { createAccount } from './support/oidc-flow.ts';

const testDb = useTestDatabase();

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

describe('readLoginFacts: one statement for what a sign-in is decided on', () => {
  it('answers an unknown address with no account, no binding and the clock’s time', async () => {
    const clock = manualClock();
    const facts = await readLoginFacts(testDb().db, clock, 'Nobody@Facts.Example');
    expect(facts).toEqual({
      now: await clock.now(),
      identifierHash: identifierHash('nobody@facts.example'),
      account: null,
      upstreamProviderId: null,
    });
  });

  it('reads the account by its normalised address and the domain’s binding together', async () => {
    const db = testDb().db;
    const account = await createAccount(db, 'ada@bound-facts.example', 'Correct-Horse-42');
    const providerId = await bindDomain('bound-facts.example');
    const facts = await readLoginFacts(db, manualClock(), '  ADA@Bound-Facts.Example ');
    expect(facts.identifierHash).toBe(identifierHash('ada@bound-facts.example'));
    expect(facts.account?.id).toBe(account.id);
    expect(facts.account?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(facts.upstreamProviderId).toBe(providerId);
  });

  it('finds a binding stored in IDNA form from a Unicode domain, and none for an address without a domain', async () => {
    const providerId = await bindDomain('xn--bcher-kva.example');
    const clock = manualClock();
    expect((await readLoginFacts(testDb().db, clock, 'leser@bücher.example')).upstreamProviderId).toBe(
      providerId,
    );
    expect((await readLoginFacts(testDb().db, clock, 'no-domain')).upstreamProviderId).toBeNull();
  });

  it('takes the time from the database clock in the same statement', async () => {
    const before = Date.now();
    const { now } = await readLoginFacts(testDb().db, databaseClock(testDb().db), 'clock@facts.example');
    // The database rounds up to the next millisecond; same machine, so within a few seconds of ours.
    expect(now.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    expect(now.getTime()).toBeLessThanOrEqual(Date.now() + 5_000);
  });
});
