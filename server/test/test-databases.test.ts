import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertAccount } from '../src/accounts/account-repository.ts';
import { accounts } from '../src/store/tables/index.ts';
import { createTestDatabase } from './support/database.ts';

/**
 * The test files' own databases (support/database.ts): on PGlite one is emptied and handed to the
 * worker's next file instead of loading the template again, so what one file wrote or changed must
 * never reach the next.
 */
describe('a test file’s database', () => {
  it('starts with no rows, whatever the file before it wrote', async () => {
    const first = await createTestDatabase();
    await insertAccount(first.database.db, { email: 'left@example.com', displayName: 'Left Behind' });
    await first.dispose();

    const next = await createTestDatabase();
    try {
      if (next.kind === 'pglite') {
        expect(next.database.client, 'handed on, not loaded again').toBe(first.database.client);
      }
      expect(await next.database.db.select().from(accounts)).toEqual([]);
    } finally {
      await next.dispose();
    }
  });

  it('is a fresh copy of the template once a file changed the schema', async () => {
    const changed = await createTestDatabase();
    await changed.database.db.execute(sql`alter table account add column left_behind text`);
    await changed.dispose();

    const next = await createTestDatabase();
    try {
      expect(next.database.client).not.toBe(changed.database.client);
      await expect(next.database.db.execute(sql`select left_behind from account`)).rejects.toThrow();
    } finally {
      await next.dispose();
    }
  });

  it('is a fresh copy of the template once a file closed it (an outage test)', async () => {
    const closed = await createTestDatabase();
    // On PostgreSQL each file's database is its own and dropped at the end; closing it is the test's.
    if (closed.kind === 'pglite') await closed.database.close();
    await closed.dispose();

    const next = await createTestDatabase();
    try {
      expect(next.database.client).not.toBe(closed.database.client);
      expect(await next.database.db.select().from(accounts)).toEqual([]);
    } finally {
      await next.dispose();
    }
  });

  it('calls no LISTEN callback of a file before it', async () => {
    const first = await createTestDatabase();
    const firstDb = first.database;
    if (firstDb.kind !== 'pglite') {
      // On PostgreSQL each file's database is its own, and its pool's connections go with it.
      await first.dispose();
      const next = await createTestDatabase();
      await next.dispose();
      expect(next.database).not.toBe(first.database);
      return;
    }
    const before: string[] = [];
    await firstDb.client.listen('keycard_client_changed', (payload: string) => before.push(payload));
    await first.dispose();

    const next = await createTestDatabase();
    try {
      const nextDb = next.database;
      if (nextDb.kind !== 'pglite') throw new Error('expected PGlite again');
      let heard: (payload: string) => void = () => undefined;
      const payload = new Promise<string>((resolve) => {
        heard = resolve;
      });
      await nextDb.client.listen('keycard_client_changed', (sent: string) => heard(sent));
      await nextDb.client.exec(`notify keycard_client_changed, 'next file'`);
      expect(await payload).toBe('next file');
      expect(before).toEqual([]);
    } finally {
      await next.dispose();
    }
  });
});
