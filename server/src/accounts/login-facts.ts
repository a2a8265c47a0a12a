import { type Clock, epochMsOf } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { type Account, claimLoginAttempt } from './account-repository.ts';
import { bindingLookupKey } from './domain-key.ts';
import { emailDomain, identifierHash, normalizeEmail } from './identifiers.ts';
import { type AttemptClaim, attemptClaimOf, type LockoutPolicy } from './lockout.ts';

/** What a sign-in attempt is decided on (DESIGN §2 Login). */
export interface LoginFacts {
  now: Date;
  identifierHash: string;
  account: Account | null;
  /** The upstream provider bound to the address's domain, if any (home-realm discovery). */
  upstreamProviderId: string | null;
  /** The attempt's place in its identifier's failure count, taken before any password is checked. */
  claim: AttemptClaim;
}

/**
 * Claims the attempt (lockout.ts) and reads the clock, the account and the domain's upstream binding,
 * all in one statement: every round trip to the database costs the service and the database CPU that
 * the password hash then lacks. The claim counts and decides the lock in that statement, so no read
 * before it could be out of date by the time the attempt is counted.
 */
export async function claimLoginFacts(
  db: Db,
  clock: Clock,
  email: string,
  policy: LockoutPolicy,
): Promise<LoginFacts> {
  const domain = bindingLookupKey(emailDomain(email));
  const id = identifierHash(email);
  const row = await claimLoginAttempt(
    db,
    clock,
    { emailNormalized: normalizeEmail(email), domain, identifierHash: id },
    policy,
  );
  return {
    now: epochMsOf(row.nowMs),
    identifierHash: id,
    account: row.account,
    upstreamProviderId: row.upstreamProviderId,
    claim: attemptClaimOf(row.claimed),
  };
}
