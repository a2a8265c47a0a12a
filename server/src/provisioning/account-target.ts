import { type Account, findAccountByEmail, findAccountById } from '../accounts/account-repository.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Db } from '../store/database.ts';
import type { AdminDeps } from './admin-deps.ts';
import { noAccount, refuse } from './admin-result.ts';
import type { AccountRef, AccountSummary, UserView } from './user-schemas.ts';

/** What the user:* operations answer about an account: never a hash or other secret. */
export function summarize(account: Account): AccountSummary {
  return { id: account.id, email: account.email, displayName: account.displayName };
}

/** The account's state as the admin API shows it (user:read, user:find). */
export function viewOf(account: Account): UserView {
  return {
    ...summarize(account),
    hasPassword: account.passwordHash !== null,
    mustChangePassword: account.mustChangePassword,
    disabled: account.disabledAt !== null,
    external: account.externalIdpId !== null,
    createdAt: account.createdAt.toISOString(),
  };
}

/** The account a validated input names, by e-mail or by id. */
export function findTarget(db: Db, ref: AccountRef): Promise<Account | null> {
  return ref.id !== undefined ? findAccountById(db, ref.id) : findAccountByEmail(db, ref.email ?? '');
}

export function noTarget(ref: AccountRef) {
  return ref.id !== undefined
    ? refuse('not_found', `no account with the id ${ref.id}`)
    : noAccount(ref.email ?? '');
}

/**
 * The admin action, beside any security event it causes; names the command and, through the admin
 * API, the client that asked (`actor`), never a secret.
 */
export function auditAdmin(
  db: Db,
  deps: Pick<AdminDeps, 'actor'>,
  command: string,
  accountId: string,
): Promise<void> {
  return recordAudit(db, {
    event: 'admin',
    outcome: 'success',
    accountId,
    detail: actorDetail(deps, { command }),
  });
}

/** The audit detail of an admin action: `detail` plus the admin API client that asked, if any. */
export function actorDetail(
  deps: Pick<AdminDeps, 'actor'>,
  detail: Record<string, string | number | boolean | null>,
): Record<string, string | number | boolean | null> {
  return deps.actor === undefined ? detail : { ...detail, actor: deps.actor };
}
