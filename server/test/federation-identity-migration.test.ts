import { randomUUID } from 'node:crypto';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bindExternalIdentity, linkExternalIdentity } from '../src/accounts/account-repository.ts';
import { migrateDatabase } from '../src/store/migrate.ts';
import { rowsOf } from '../src/store/rows.ts';
import { isUniqueViolation } from '../src/store/sql-state.ts';
import { accounts, auditEvents } from '../src/store/tables/index.ts';
import { useDatabaseMigratedBefore } from './support/partial-migrations.ts';

/** The migration that adds account_external_identity_idx. */
const INDEX_MIGRATION = '0010_external_identity';

const database = useDatabaseMigratedBefore(INDEX_MIGRATION);

describe(`the upstream identity index on a database that holds duplicates (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('migrates: the oldest enabled account keeps the identity; the others are bound to no real subject, disabled and on record', async () => {
    const { db } = database();
    const provider = randomUUID();
    const elsewhere = randomUUID();
    const frozenAt = new Date('2025-03-01T00:00:00Z');
    const row = (name: string, createdAt: string, subject: string | null, idp = provider) => ({
      email: `${name}@contoso.example`,
      emailNormalized: `${name}@contoso.example`,
      displayName: name,
      firstName: name,
      externalIdpId: idp,
      externalSubject: subject,
      createdAt: new Date(createdAt),
    });
    // Written in SQL: the table as migration 0009 left it, without the columns that came later.
    const rows = [
      // Disabled by an administrator (a stale account cleaned up), then provisioned again after a
      // change of address upstream, twice.
      { ...row('alice', '2025-01-01T00:00:00Z', 'sub-alice'), disabledAt: frozenAt },
      row('alice.j', '2025-06-01T00:00:00Z', 'sub-alice'),
      row('alice.k', '2025-07-01T00:00:00Z', 'sub-alice'),
      // Two disabled ones only: the oldest keeps the identity.
      { ...row('carol', '2025-01-01T00:00:00Z', 'sub-carol'), disabledAt: frozenAt },
      { ...row('carol.b', '2025-02-01T00:00:00Z', 'sub-carol'), disabledAt: frozenAt },
      row('bob', '2025-01-01T00:00:00Z', 'sub-bob'),
      row('alice.other', '2025-08-01T00:00:00Z', 'sub-alice', elsewhere),
      row('pending-1', '2025-01-01T00:00:00Z', null),
      row('pending-2', '2025-01-01T00:00:00Z', null),
    ];
    const inserted: { id: string; displayName: string }[] = [];
    for (const { disabledAt = null, ...values } of rows as (ReturnType<typeof row> & {
      disabledAt?: Date | null;
    })[]) {
      const [created] = await db
        .execute(sql`
        insert into account (email, email_normalized, display_name, first_name, external_idp_id, external_subject, created_at, disabled_at)
        values (${values.email}, ${values.emailNormalized}, ${values.displayName}, ${values.firstName},
          ${values.externalIdpId}, ${values.externalSubject}, ${values.createdAt.toISOString()}, ${disabledAt?.toISOString() ?? null})
        returning id, display_name as "displayName"`)
        .then((result) => rowsOf<{ id: string; displayName: string }>(result));
      if (created) inserted.push(created);
    }
    const id = (name: string) => inserted.find((account) => account.displayName === name)?.id ?? '';

    await migrateDatabase(database());

    const after = await db.select().from(accounts).orderBy(asc(accounts.createdAt), asc(accounts.email));
    const state = Object.fromEntries(
      after.map((account) => [
        account.displayName,
        [account.externalIdpId, account.externalSubject, account.disabledAt?.toISOString() ?? null],
      ]),
    );
    expect(state).toEqual({
      alice: [provider, `duplicate:${id('alice')}`, frozenAt.toISOString()],
      'alice.j': [provider, 'sub-alice', null],
      'alice.k': [provider, `duplicate:${id('alice.k')}`, expect.any(String)],
      carol: [provider, 'sub-carol', frozenAt.toISOString()],
      'carol.b': [provider, `duplicate:${id('carol.b')}`, frozenAt.toISOString()],
      bob: [provider, 'sub-bob', null],
      'alice.other': [elsewhere, 'sub-alice', null],
      'pending-1': [provider, null, null],
      'pending-2': [provider, null, null],
    });
    // Migration 0011: every account that existed keeps the verified address it was reported with.
    expect(after.every((account) => account.emailVerifiedAt?.getTime() === account.createdAt.getTime())).toBe(
      true,
    );
    const kept = {
      [id('alice')]: id('alice.j'),
      [id('alice.k')]: id('alice.j'),
      [id('carol.b')]: id('carol'),
    };
    const records = await db
      .select()
      .from(auditEvents)
      .where(inArray(auditEvents.accountId, Object.keys(kept)));
    expect(records.map((record) => record.accountId).sort()).toEqual(Object.keys(kept).sort());
    for (const record of records) {
      expect(record).toMatchObject({
        event: 'admin',
        outcome: 'success',
        detail: {
          command: 'migration:unlink-duplicate-identity',
          providerId: provider,
          keptAccountId: kept[record.accountId ?? ''],
        },
      });
    }

    // An unlinked one cannot be claimed by the next person upstream with its address.
    expect(
      await linkExternalIdentity(db, id('alice.k'), { providerId: provider, subject: 'sub-newcomer' }),
    ).toBe(false);
    // From now on the database itself refuses a second account for the identity.
    const refused = await bindExternalIdentity(db, id('alice.k'), {
      providerId: provider,
      subject: 'sub-alice',
    })
      .then(() => null)
      .catch((error: unknown) => error);
    expect(isUniqueViolation(refused)).toBe(true);
    const [aliceK] = await db
      .select()
      .from(accounts)
      .where(eq(accounts.id, id('alice.k')));
    expect(aliceK?.externalSubject).toBe(`duplicate:${id('alice.k')}`);
  });
});
