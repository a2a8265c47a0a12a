import { eq } from 'drizzle-orm';
import {
  type Account,
  findAccountByEmail,
  insertAccount,
  setDisabled,
  setMustChangePassword,
  storePassword,
} from '../accounts/account-repository.ts';
import { identifierHash } from '../accounts/identifiers.ts';
import { clearFailures } from '../accounts/lockout.ts';
import { hashPassword } from '../accounts/password-hash.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { type Db, loginFailures } from '../store/tables/index.ts';
import {
  type AdminDeps,
  type AdminResult,
  clockOf,
  noAccount,
  ok,
  parseInput,
  refuse,
} from './admin-result.ts';
import {
  type AccountChangeResult,
  type AccountInput,
  type AccountSummary,
  type AddUserInput,
  type AddUserResult,
  accountInput,
  addUserInput,
  type UnlockResult,
} from './user-schemas.ts';

/**
 * Account operations of the admin CLI and admin API (DESIGN §1 Provisioning). Each validates its
 * input, changes the account in one transaction and records an audit event that names the command
 * and never a password.
 */

function summary(account: Account): AccountSummary {
  return { id: account.id, email: account.email, displayName: account.displayName };
}

function auditAdmin(db: Db, command: string, accountId: string): Promise<void> {
  return recordAudit(db, { event: 'admin', outcome: 'success', accountId, detail: { command } });
}

/** Creates a local account, with a first password when one is given (checked against the policy). */
export async function addUser(deps: AdminDeps, input: AddUserInput): Promise<AdminResult<AddUserResult>> {
  const parsed = parseInput(addUserInput, input);
  if (!parsed.ok) return parsed;
  const { email, name, password } = parsed.value;
  // Hashed before the transaction: argon2 takes a while and needs no database lock.
  const hash = password === undefined ? null : await hashPassword(password);
  const now = await clockOf(deps).now();
  return deps.db.transaction(async (tx) => {
    const account = await insertAccount(tx, { email, displayName: name });
    if (!account) return refuse('conflict', `an account with the e-mail ${email} already exists`, 'email');
    if (hash !== null) await storePassword(tx, account.id, hash, now);
    await auditAdmin(tx, 'user:add', account.id);
    return ok({ account: summary(account), hasPassword: hash !== null });
  });
}

/** DESIGN §2 Login: the next correct sign-in must change the password (verificationType 2). */
export async function expirePassword(
  deps: AdminDeps,
  input: AccountInput,
): Promise<AdminResult<AccountChangeResult>> {
  const parsed = parseInput(accountInput, input);
  if (!parsed.ok) return parsed;
  const account = await findAccountByEmail(deps.db, parsed.value.email);
  if (!account) return noAccount(parsed.value.email);
  if (account.mustChangePassword) return ok({ account: summary(account), changed: false });
  await deps.db.transaction(async (tx) => {
    await setMustChangePassword(tx, account.id);
    await auditAdmin(tx, 'user:expire-password', account.id);
  });
  return ok({ account: summary(account), changed: true });
}

function lockInForce(row: typeof loginFailures.$inferSelect, now: Date): boolean {
  return row.lockedAt !== null && (row.lockedUntil === null || row.lockedUntil > now);
}

/**
 * Clears the identifier's failure counter and lock (DESIGN §2 Login), as the unlock link does.
 * Recorded even when nothing was locked: who unlocked whom is worth knowing either way.
 */
export async function unlockUser(deps: AdminDeps, input: AccountInput): Promise<AdminResult<UnlockResult>> {
  const parsed = parseInput(accountInput, input);
  if (!parsed.ok) return parsed;
  const account = await findAccountByEmail(deps.db, parsed.value.email);
  if (!account) return noAccount(parsed.value.email);
  const id = identifierHash(account.email);
  const now = await clockOf(deps).now();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(loginFailures).where(eq(loginFailures.identifierHash, id));
    const wasLocked = row !== undefined && lockInForce(row, now);
    await clearFailures(tx, id);
    // The security event of DESIGN §2 (as for the e-mailed link), and the admin action that caused it.
    await recordAudit(tx, {
      event: 'unlock',
      outcome: 'success',
      accountId: account.id,
      detail: { via: 'admin', wasLocked },
    });
    await auditAdmin(tx, 'user:unlock', account.id);
    return ok({ account: summary(account), wasLocked, failuresCleared: row?.failureCount ?? 0 });
  });
}

/** Sets or clears disabled_at. Repeating it changes nothing, so nothing is recorded either. */
async function changeDisabled(
  deps: AdminDeps,
  input: AccountInput,
  disabled: boolean,
): Promise<AdminResult<AccountChangeResult>> {
  const parsed = parseInput(accountInput, input);
  if (!parsed.ok) return parsed;
  const account = await findAccountByEmail(deps.db, parsed.value.email);
  if (!account) return noAccount(parsed.value.email);
  if ((account.disabledAt !== null) === disabled) return ok({ account: summary(account), changed: false });
  await deps.db.transaction(async (tx) => {
    await setDisabled(tx, account.id, disabled);
    await auditAdmin(tx, disabled ? 'user:disable' : 'user:enable', account.id);
  });
  return ok({ account: summary(account), changed: true });
}

export function disableUser(deps: AdminDeps, input: AccountInput): Promise<AdminResult<AccountChangeResult>> {
  return changeDisabled(deps, input, true);
}

export function enableUser(deps: AdminDeps, input: AccountInput): Promise<AdminResult<AccountChangeResult>> {
  return changeDisabled(deps, input, false);
}
