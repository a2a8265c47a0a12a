import { type Clock, epochMsOf } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { type Account, selectLoginFacts } from './account-repository.ts';
import { bindingLookupKey } from './domain-key.ts';
import { emailDomain, identifierHash, normalizeEmail } from './identifiers.ts';

/** What a sign-in attempt is decided on (DESIGN §2 Login), besides its claim on the failure count. */
export interface LoginFacts {
  now: Date;
  identifierHash: string;
  account: Account | null;
  /** The upstream provider bound to the address's domain, if any (home-realm discovery). */
  upstreamProviderId: string | null;
}

/**
 * Reads the clock, the account and the domain's upstream binding in one statement: every round trip
 * to the database costs the service and the database CPU that the password hash then lacks. Each
 * join matches at most one row (primary or unique keys), so the statement answers exactly one row.
 * The lock is not read here: the attempt's claim (lockout.ts claimAttempt) counts and decides it in
 * one statement, which a read before it could not.
 */
export async function readLoginFacts(db: Db, clock: Clock, email: string): Promise<LoginFacts> {
  const domain = bindingLookupKey(emailDomain(email));
  const row = await selectLoginFacts(db, clock, { emailNormalized: normalizeEmail(email), domain });
  // Stryker disable next-line all: left joins on one constant row always answer that row; the guard is for the type
  if (!row) throw new Error('the login facts statement answered no row');
  return {
    now: epochMsOf(row.nowMs),
    identifierHash: identifierHash(email),
    account: row.account,
    upstreamProviderId: row.upstreamProviderId,
  };
}
