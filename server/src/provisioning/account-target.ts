import { languageFor } from '@keycard/contract';
import { type Account, findAccountByEmail, findAccountById } from '../accounts/account-repository.ts';
import { NotFoundError } from '../errors/service-error.ts';
import type { Db } from '../store/database.ts';
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
    emailVerified: account.emailVerifiedAt !== null,
    external: account.externalIdpId !== null,
    // As its mail reads it (mail-language.ts).
    language: account.locale === null ? null : languageFor(account.locale),
    createdAt: account.createdAt.toISOString(),
  };
}

/** The account a validated input names, by e-mail or by id. */
export function findTarget(db: Db, ref: AccountRef): Promise<Account | null> {
  return ref.id !== undefined ? findAccountById(db, ref.id) : findAccountByEmail(db, ref.email ?? '');
}

export function noAccount(email: string): NotFoundError {
  return new NotFoundError(`no account with the e-mail ${email.trim()}`);
}

/** The refusal for an account the input names and the store does not hold. */
export function noTarget(ref: AccountRef): NotFoundError {
  return ref.id !== undefined
    ? new NotFoundError(`no account with the id ${ref.id}`)
    : noAccount(ref.email ?? '');
}

/** The account the input names; not_found when there is none. */
export async function requireTarget(db: Db, ref: AccountRef): Promise<Account> {
  const account = await findTarget(db, ref);
  if (!account) throw noTarget(ref);
  return account;
}
