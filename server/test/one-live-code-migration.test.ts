import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '../src/store/migrate.ts';
import { rowsOf } from '../src/store/rows.ts';
import { hasSqlState } from '../src/store/sql-state.ts';
import { useDatabaseMigratedBefore } from './support/partial-migrations.ts';

/** The migration that allows an account one live code of a type. */
const ONE_LIVE_CODE_MIGRATION = '0016_one_live_code';

const database = useDatabaseMigratedBefore(ONE_LIVE_CODE_MIGRATION);

describe(`codes issued before an account could hold only one live code of a type (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('leaves the newest of each account and type live, supersedes the others, and refuses a second live one after', async () => {
    const { db } = database();
    // Written in SQL: the tables as migration 0015 left them.
    const accountIds = rowsOf<{ id: string }>(
      await db.execute(sql`
        insert into account (email, email_normalized, display_name, first_name)
        values ('kai@example.com', 'kai@example.com', 'Kai', 'Kai'),
               ('lea@example.com', 'lea@example.com', 'Lea', 'Lea')
        returning id`),
    ).map((row) => row.id);
    const [kai, lea] = accountIds;
    const code = (
      hash: string,
      accountId: string | undefined,
      type: number,
      createdAt: string,
      consumed = false,
    ) =>
      db.execute(sql`
        insert into verification_code (code_hash, account_id, verification_type, created_at, expires_at, consumed_at)
        values (${hash}, ${accountId}, ${type}, ${createdAt}::timestamptz, ${createdAt}::timestamptz + interval '1 hour',
                ${consumed ? createdAt : null}::timestamptz)`);
    // Two reset links of Kai's issued at once (the newer one a minute later), and one spent earlier.
    await code('kai-reset-older', kai, 1, '2026-11-28T10:00:00Z');
    await code('kai-reset-newer', kai, 1, '2026-11-28T10:01:00Z');
    await code('kai-reset-spent', kai, 1, '2026-11-28T09:00:00Z', true);
    await code('kai-unlock', kai, 3, '2026-11-28T09:30:00Z');
    await code('lea-reset', lea, 1, '2026-11-28T09:00:00Z');

    await migrateDatabase(database());

    const states = rowsOf<{ code_hash: string; consumed: boolean; superseded: boolean }>(
      await db.execute(sql`
        select code_hash, consumed_at is not null as consumed, superseded_at is not null as superseded
        from verification_code order by code_hash`),
    ).map((row) => [row.code_hash, row.consumed, row.superseded]);
    expect(states).toEqual([
      ['kai-reset-newer', false, false],
      ['kai-reset-older', false, true],
      ['kai-reset-spent', true, false],
      ['kai-unlock', false, false],
      ['lea-reset', false, false],
    ]);
    // From now on the database itself refuses a second live code of a type for an account.
    const second = await code('kai-reset-third', kai, 1, '2026-11-28T10:02:00Z').then(
      () => null,
      (error: unknown) => error,
    );
    expect(hasSqlState(second, new Set(['23505']))).toBe(true);
    await expect(code('kai-unlock-spent', kai, 3, '2026-11-28T10:02:00Z', true)).resolves.toBeDefined();
  });
});
