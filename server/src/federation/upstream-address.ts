import { type Account, replaceEmail } from '../accounts/account-repository.ts';
import { normalizeEmail, storedEmailForm } from '../accounts/identifiers.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { supersedeCodes } from '../codes/code-repository.ts';
import { CODES_OF_AN_ADDRESS } from '../codes/codes.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { isUniqueViolation } from '../store/sql-state.ts';

/** The address a provider vouches for, and which provider it is. */
interface UpstreamAddress {
  readonly providerId: string;
  readonly email: string;
}

/**
 * A linked account takes the address its provider now vouches for: the provider is the authority for
 * the addresses of its domains (link-account.ts), and mail should reach the person where they are.
 * The links mailed to the old address stop working with it. Answers the account with the address it
 * has afterwards.
 *
 * When another account holds the new address, the linked account keeps its old one and the sign-in
 * goes on: the person is still who the provider says (issuer and `sub`), and handing them the other
 * account, or refusing them, would punish them for a clash only an administrator can settle. The
 * refusal is on record for that administrator.
 */
export async function followUpstreamAddress(
  db: Db,
  clock: Clock,
  account: Account,
  upstream: UpstreamAddress,
): Promise<Account> {
  const email = storedEmailForm(upstream.email);
  // The same address in another letter case is no change (DESIGN §2: compared case-insensitively):
  // nothing to record, and the links mailed to it keep working.
  // The account's own address is compared, not its stored key: a key written before by another
  // release (accounts/address-keys.ts) must not make the same address look like a change.
  if (normalizeEmail(account.email) === normalizeEmail(email)) return account;
  const detail = { step: 'federation', providerId: upstream.providerId };
  // Read before the transaction: the clock asks the database, which holds one connection on PGlite.
  const now = await clock.now();
  let moved: boolean;
  try {
    moved = await db.transaction(async (tx) => {
      if (!(await replaceEmail(tx, account.id, email))) return false;
      // No link mailed to the old address works any more, as after a confirmed change of address.
      await supersedeCodes(tx, account.id, CODES_OF_AN_ADDRESS, now);
      await recordAudit(tx, { event: 'email_change', outcome: 'success', accountId: account.id, detail });
      return true;
    });
  } catch (error) {
    // An account created with the address at this very moment won the unique index: taken too.
    if (!isUniqueViolation(error)) throw error;
    moved = false;
  }
  // The row as the sign-in read it, not read again: its result is bound to what it saw first
  // (oidc/sign-in-result.ts).
  if (moved) return { ...account, email, emailNormalized: normalizeEmail(email) };
  await recordAudit(db, {
    event: 'email_change',
    outcome: 'refused',
    accountId: account.id,
    detail: { ...detail, reason: 'address_taken' },
  });
  return account;
}
