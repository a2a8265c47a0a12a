import { clearFailures, deleteAccount } from '../accounts/account-repository.ts';
import { identifierHash } from '../accounts/identifiers.ts';
import { parseInput } from '../errors/parse-input.ts';
import { endAccountSessionsWithLogout } from '../oidc/logout.ts';
import { fixedClock } from '../recovery/fixed-clock.ts';
import { retriedTransaction } from '../store/retried-transaction.ts';
import { noTarget, requireTarget, summarize, viewOf } from './account-target.ts';
import { auditAdmin } from './provisioning-audit.ts';
import { clockOf, type ProvisioningDeps } from './provisioning-deps.ts';
import { type AccountInput, accountInput, type DeleteUserResult, type UserView } from './user-schemas.ts';

/** Reading and removing accounts (DESIGN §1 Provisioning), for the admin API. */

/** One account's state, by id or by e-mail; not_found when there is none. Reading changes nothing. */
export async function readUser(deps: ProvisioningDeps, input: AccountInput): Promise<UserView> {
  return viewOf(await requireTarget(deps.db, parseInput(accountInput, input)));
}

/**
 * Deletes the account for good: its codes, password history and pending sign-outs go with it (the
 * tables cascade), its sign-in sessions and tokens end, and its identifier's failure counter is
 * cleared so a new account with the address starts clean. Audit events stay (DESIGN §2 Audit log).
 */
export async function deleteUser(deps: ProvisioningDeps, input: AccountInput): Promise<DeleteUserResult> {
  const ref = parseInput(accountInput, input);
  const account = await requireTarget(deps.db, ref);
  const now = await clockOf(deps).now();
  // Run again after a conflict with a transaction on the same rows (the account's sessions, grants).
  return retriedTransaction(deps.db, async (tx) => {
    // Deleted meanwhile by another request: report what this one found, as the other one did.
    if (!(await deleteAccount(tx, account.id))) throw noTarget(ref);
    await endAccountSessionsWithLogout(tx, fixedClock(now), account.id);
    await clearFailures(tx, identifierHash(account.email));
    await auditAdmin(tx, deps, 'user:delete', account.id);
    return { account: summarize(account) };
  });
}
