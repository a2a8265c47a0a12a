import { asc, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deleteAccount } from '../src/accounts/account-repository.ts';
import { migrateDatabase } from '../src/store/migrate.ts';
import { rowsOf } from '../src/store/rows.ts';
import { outbox } from '../src/store/tables/index.ts';
import { useDatabaseMigratedBefore } from './support/partial-migrations.ts';

/** The migration that gives each message the account it is about. */
const MAIL_ACCOUNT_MIGRATION = '0015_mail_of_account';

const database = useDatabaseMigratedBefore(MAIL_ACCOUNT_MIGRATION);

describe(`mail queued before messages named their account (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('is given the account of its address, and goes when that account is deleted', async () => {
    const { db } = database();
    // Written in SQL: the tables as migration 0014 left them.
    const [account] = await db
      .execute(sql`
        insert into account (email, email_normalized, display_name, first_name)
        values ('Kai@Example.com', 'kai@example.com', 'Kai', 'Kai') returning id`)
      .then((result) => rowsOf<{ id: string }>(result));
    for (const recipient of ['Kai@Example.com', 'kai-new@example.com', 'someone@example.com']) {
      await db.execute(sql`
        insert into mail_outbox (kind, recipient, subject, text_body, html_body)
        values ('password_reset', ${recipient}, 's', 't', 'h')`);
    }

    await migrateDatabase(database());

    const named = async () =>
      (await db.select().from(outbox).orderBy(asc(outbox.recipient))).map((row) => [
        row.recipient,
        row.accountId,
      ]);
    expect(await named()).toEqual([
      ['Kai@Example.com', account?.id],
      // A new address not confirmed yet is nobody's: the message stays without an account.
      ['kai-new@example.com', null],
      ['someone@example.com', null],
    ]);
    await deleteAccount(db, account?.id ?? '');
    expect(await named()).toEqual([
      ['kai-new@example.com', null],
      ['someone@example.com', null],
    ]);
  });
});
