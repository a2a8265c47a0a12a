import { clearFailures, deleteAccount } from '../accounts/account-repository.ts';
import { identifierHash } from '../accounts/identifiers.ts';
import { endAccountSessions } from '../oidc/oidc-repository.ts';
import { auditAdmin, findTarget, noTarget, summarize, viewOf } from './admin-account.ts';
import type { AdminDeps } from './admin-deps.ts';
import { type AdminResult, ok, parseInput } from './admin-result.ts';
import { type AccountInput, accountInput, type DeleteUserResult, type UserView } from './user-schemas.ts';

/** Reading and removing accounts (DESIGN §1 Provisioning), for the admin API. */

/** One account's state, by id or by e-mail; not_found when there is none. Reading changes nothing. */
export async function readUser(deps: AdminDeps, input: AccountInput): Promise<AdminResult<UserView>> {
  const parsed = parseInput(accountInput, input);
  if (!parsed.ok) return parsed;
  const account = await findTarget(deps.db, parsed.value);
  return account ? ok(viewOf(account)) : noTarget(parsed.value);
}

/**
 * Deletes the account for good: its codes, password history and pending sign-outs go with it (the
 * tables cascade), its sign-in sessions and tokens end, and its identifier's failure counter is
 * cleared so a new account with the address starts clean. Audit events stay (DESIGN §2 Audit log).
 */
export async function deleteUser(
  deps: AdminDeps,
  input: AccountInput,
): Promise<AdminResult<DeleteUserResult>> {
  const parsed = parseInput(accountInput, input);
  if (!parsed.ok) return parsed;
  const account = await findTarget(deps.db, parsed.value);
  if (!account) return noTarget(parsed.value);
  return deps.db.transaction(async (tx) => {
    // Deleted meanwhile by another request: report what this one found, as the other one did.
    if (!(await deleteAccount(tx, account.id))) return noTarget(parsed.value);
    await endAccountSessions(tx, account.id);
    await clearFailures(tx, identifierHash(account.email));
    await auditAdmin(tx, deps, 'user:delete', account.id);
    return ok({ account: summarize(account) });
  });
}
