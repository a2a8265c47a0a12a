import { type Clock, epochMsOf } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { type Account, clearFailures, selectLoginFacts } from './account-repository.ts';
import { bindingLookupKey } from './domain-key.ts';
import { emailDomain, identifierHash, normalizeEmail } from './identifiers.ts';
import { type LockState, lockStateOf } from './lockout.ts';

/** What a sign-in attempt is decided on (DESIGN §2 Login). */
export interface LoginFacts {
  now: Date;
  identifierHash: string;
  lock: LockState;
  account: Account | null;
  /** The upstream provider bound to the address's domain, if any (home-realm discovery). */
  upstreamProviderId: string | null;
}

/**
 * Reads the clock, the identifier's failure counter, the account and the domain's upstream binding in
 * one statement: every round trip to the database costs the service and the database CPU that the
 * password hash then lacks. Each join matches at most one row (primary or unique keys), so the
 * statement answers exactly one row. A lock whose time is up is cleared on the way.
 */
export async function readLoginFacts(db: Db, clock: Clock, email: string): Promise<LoginFacts> {
  const id = identifierHash(email);
  const domain = bindingLookupKey(emailDomain(email));
  const row = await selectLoginFacts(db, clock, {
    identifierHash: id,
    emailNormalized: normalizeEmail(email),
    domain,
  });
  // Stryker disable next-line all: left joins on one constant row always answer that row; the guard is for the type
  if (!row) throw new Error('the login facts statement answered no row');
  const now = epochMsOf(row.nowMs);
  // The counter row exists exactly when its count (not null in the table) is there.
  const { expired, ...lock } = lockStateOf(row.failureCount === null ? null : row, now);
  if (expired) await clearFailures(db, id);
  return { now, identifierHash: id, lock, account: row.account, upstreamProviderId: row.upstreamProviderId };
}
