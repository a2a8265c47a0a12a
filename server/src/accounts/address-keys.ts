import type { Db } from '../store/database.ts';
import { isUniqueViolation } from '../store/sql-state.ts';
import {
  type AccountAddress,
  accountsKeyedOutsideAscii,
  emailTaken,
  rekeyAccount,
} from './account-repository.ts';
import { normalizeEmail } from './identifiers.ts';

/** What bringing the lookup keys up to date did. */
export interface Rekeyed {
  /** Accounts that took their new key. */
  readonly rekeyed: number;
  /** Accounts that kept their old key, since another account holds the new one: their ids. */
  readonly clashing: readonly string[];
}

/**
 * Gives `account` the key `key`; false when it cannot: another account holds the key, one created
 * with it this very moment too (its insert wins the unique index), or the account's key changed.
 */
async function takesKey(db: Db, account: AccountAddress, key: string): Promise<boolean> {
  try {
    return await rekeyAccount(db, account.id, account.emailNormalized, key);
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/**
 * Brings lookup keys written before an address's domain was keyed in IDNA ASCII form (identifiers.ts)
 * up to date, at every start of the service and of the admin CLI: an account created as
 * "ada@bücher.example" is then found when a browser sends "ada@xn--bcher-kva.example". One scan of
 * the accounts table reads the accounts with a key outside ASCII (those with such a local part too);
 * only a key that changes is written. An account whose new key another account already holds (one
 * address registered twice, once in each spelling) keeps its old key and is named in the answer:
 * which of the two is the person's is an administrator's call.
 */
export async function rekeyAddresses(db: Db): Promise<Rekeyed> {
  let rekeyed = 0;
  const clashing: string[] = [];
  for (const account of await accountsKeyedOutsideAscii(db)) {
    const key = normalizeEmail(account.email);
    // Stryker disable next-line ConditionalExpression: an unchanged key would not be written either (the account itself holds it), this spares the statements
    if (key === account.emailNormalized) continue;
    if (await takesKey(db, account, key)) rekeyed += 1;
    // Not changed: another account holds the key, or another instance starting beside this one
    // re-keyed the account first.
    else if (await emailTaken(db, key, account.id)) clashing.push(account.id);
  }
  return { rekeyed, clashing };
}
