import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findAccountById, insertAccount } from '../src/accounts/account-repository.ts';
import { openDatabase, pgliteDirectory } from '../src/store/open-database.ts';
import { accounts } from '../src/store/tables/index.ts';
import {
  freePort,
  seedEmbeddedDatabase,
  startService,
  useServiceProcesses,
} from './support/service-process.ts';

/**
 * The service brings lookup keys written before an address's domain was keyed in IDNA ASCII form up
 * to date at its start (accounts/address-keys.ts, main.ts), and says what it did.
 */

useServiceProcesses();

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'keycard-address-keys-'));
  await seedEmbeddedDatabase(dataDir);
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

/** Runs `work` on the embedded database in `dataDir` while no service holds it. */
async function onDatabase<T>(
  work: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>,
): Promise<T> {
  const database = await openDatabase({ pgliteDir: pgliteDirectory(dataDir) });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

describe('lookup keys brought up to date at start', () => {
  it('re-keys an account keyed before, names an account whose new key another holds, and says both', async () => {
    const ids = await onDatabase(async (db) => {
      const keyAsBefore = async (email: string) => {
        const account = await insertAccount(db, { email, displayName: 'Ada Lovelace' });
        if (!account) throw new Error(`${email} exists`);
        await db
          .update(accounts)
          .set({ emailNormalized: email.toLowerCase() })
          .where(eq(accounts.id, account.id));
        return account.id;
      };
      const rekeyed = await keyAsBefore('Ada@Bücher.example');
      const clashing = await keyAsBefore('Grace@Müller.example');
      const holder = await insertAccount(db, { email: 'grace@xn--mller-kva.example', displayName: 'Grace' });
      return { rekeyed, clashing, holder: holder?.id };
    });

    const service = startService({
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      NODE_ENV: 'development',
    });
    await service.waitFor(/1 accounts are now found by their address with its domain in IDNA ASCII form/);
    await service.waitFor(/share their address with another account that spells its domain the other way/);
    expect(service.output()).toContain(ids.clashing);
    expect(service.output()).not.toContain(String(ids.holder));
    await service.waitFor(/Keycard listening on/);
    service.child.kill('SIGTERM');
    expect(await service.exited()).toBe(0);

    await onDatabase(async (db) => {
      expect((await findAccountById(db, ids.rekeyed))?.emailNormalized).toBe('ada@xn--bcher-kva.example');
      expect((await findAccountById(db, ids.clashing))?.emailNormalized).toBe('grace@müller.example');
    });
  }, 90_000);
});
