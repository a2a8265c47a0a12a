import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { insertAccount } from '../src/accounts/account-repository.ts';
import { accounts } from '../src/store/tables/index.ts';
import { createTestDatabase } from './support/database.ts';

/**
 * The test files' own databases (support/database.ts): one is emptied and handed to the worker's next
 * file instead of loading (PGlite) or copying (PostgreSQL) the template again, so what one file wrote
 * or changed must never reach the next.
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
      } else {
        expect(next.databaseUrl, 'handed on, not copied again').toBe(first.databaseUrl);
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
      if (next.kind === 'postgres') expect(next.databaseUrl).not.toBe(changed.databaseUrl);
      await expect(next.database.db.execute(sql`select left_behind from account`)).rejects.toThrow();
    } finally {
      await next.dispose();
    }
  });

  it('is a fresh copy of the template once a file made a schema or a sequence of its own', async () => {
    for (const statement of ['create schema left_behind', 'create sequence left_behind_seq']) {
      const changed = await createTestDatabase();
      await changed.database.db.execute(sql.raw(statement));
      await changed.dispose();

      const next = await createTestDatabase();
      try {
        if (next.kind === 'postgres') expect(next.databaseUrl, statement).not.toBe(changed.databaseUrl);
        else expect(next.database.client, statement).not.toBe(changed.database.client);
      } finally {
        await next.dispose();
      }
    }
  });

  it('is not emptied or taken from the next file by a second dispose of the one before', async () => {
    const first = await createTestDatabase();
    await first.dispose();
    const next = await createTestDatabase();
    try {
      await insertAccount(next.database.db, { email: 'kept@example.com', displayName: 'Kept' });
      await first.dispose();
      expect(await next.database.db.select({ email: accounts.email }).from(accounts)).toEqual([
        { email: 'kept@example.com' },
      ]);
    } finally {
      await next.dispose();
    }
  });

  it('is a fresh copy of the template once a file closed it (an outage test)', async () => {
    const closed = await createTestDatabase();
    // On PostgreSQL the file's pool is closed by dispose, which then hands the database on.
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

  it('is a fresh copy of the template once a file used it with a faked clock (embedded store)', async () => {
    const faked = await createTestDatabase();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30 * 24 * 60 * 60_000 });
    try {
      await insertAccount(faked.database.db, { email: 'later@example.com', displayName: 'Later' });
    } finally {
      vi.useRealTimers();
    }
    await faked.dispose();

    const next = await createTestDatabase();
    try {
      // PostgreSQL keeps its own clock, so its database is handed on as usual.
      if (next.kind === 'pglite') expect(next.database.client).not.toBe(faked.database.client);
      else expect(next.databaseUrl).toBe(faked.databaseUrl);
      expect(await next.database.db.select().from(accounts)).toEqual([]);
    } finally {
      await next.dispose();
    }
  });

  it('calls no LISTEN callback of a file before it', async () => {
    const first = await createTestDatabase();
    const firstDb = first.database;
    if (firstDb.kind !== 'pglite') {
      // On PostgreSQL a LISTEN belongs to a session, and a database still connected to is not handed on
      // (the next test).
      await first.dispose();
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

  it('is a fresh copy of the template on PostgreSQL while a session of the file is still connected', async () => {
    const first = await createTestDatabase();
    if (first.kind !== 'postgres' || !first.databaseUrl) {
      // PGlite has no sessions besides its one client, which dispose empties (the tests above).
      await first.dispose();
      return;
    }
    // A second pool the file forgot to close: it could still write after the truncation.
    const forgotten = new pg.Client({ connectionString: first.databaseUrl });
    forgotten.on('error', () => undefined);
    await forgotten.connect();
    try {
      await insertAccount(first.database.db, { email: 'left@example.com', displayName: 'Left Behind' });
      await first.dispose();

      const next = await createTestDatabase();
      try {
        expect(next.databaseUrl).not.toBe(first.databaseUrl);
        expect(await next.database.db.select().from(accounts)).toEqual([]);
      } finally {
        await next.dispose();
      }
      // Dropped with its sessions: the forgotten one was ended by the server.
      await expect(forgotten.query('select 1')).rejects.toThrow();
    } finally {
      await forgotten.end().catch(() => undefined);
    }
  });
});
