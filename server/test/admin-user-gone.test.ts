import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deleteAccount } from '../src/accounts/account-repository.ts';
import { NotFoundError } from '../src/errors/service-error.ts';
import type { ProvisioningDeps } from '../src/provisioning/provisioning-deps.ts';
import { provisioningMailing } from '../src/provisioning/provisioning-mailing.ts';
import { disableUser, enableUser, expirePassword } from '../src/provisioning/user-operations.ts';
import { type Clock, manualClock } from '../src/store/clock.ts';
import { auditEvents, outbox } from '../src/store/tables/index.ts';
import { STRONG } from './recovery-kit.ts';
import { testConfig } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';
import { createAccount } from './support/oidc-flow.ts';

// An admin command reads the account, then changes it in a transaction. An account deleted in
// between (another admin's DELETE at the same moment) must answer not_found, and leave no audit row
// claiming a change and no mail to the deleted address. The clock is read between the two steps, so
// a clock that deletes the account when read puts the deletion exactly there.

const testDb = useTestDatabase();
const db = () => testDb().db;

/** Deps whose clock deletes `accountId` the first time it is read. */
function depsDeletingOnRead(accountId: string): ProvisioningDeps {
  const clock = manualClock();
  let deleted = false;
  const deleting: Clock = {
    ...clock,
    async now() {
      if (!deleted) {
        deleted = true;
        await deleteAccount(db(), accountId);
      }
      return clock.now();
    },
  };
  return { db: db(), clock: deleting, mailing: provisioningMailing(testConfig()) };
}

async function adminRowsOf(accountId: string) {
  return db().select().from(auditEvents).where(eq(auditEvents.accountId, accountId));
}

describe('an account deleted between an admin command’s read and its change', () => {
  it.each([
    ['user:disable', disableUser, false],
    ['user:expire-password', expirePassword, false],
    ['user:enable', enableUser, true],
  ] as const)('%s answers not_found and records nothing', async (command, operation, disabledFirst) => {
    const email = `gone-${command.replace(':', '-')}@example.com`;
    const account = await createAccount(db(), email, STRONG, 'Gone');
    if (disabledFirst) await disableUser({ db: db(), clock: manualClock() }, { id: account.id });
    const before = (await adminRowsOf(account.id)).length;

    await expect(operation(depsDeletingOnRead(account.id), { id: account.id })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await adminRowsOf(account.id)).toHaveLength(before);
    expect(await db().select().from(outbox).where(eq(outbox.recipient, email))).toEqual([]);
  });
});
