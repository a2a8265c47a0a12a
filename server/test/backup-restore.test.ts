import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../src/store/migrate.ts';
import { openDatabase } from '../src/store/open-database.ts';
import { rowsOf } from '../src/store/rows.ts';
import { attemptSignIn } from './admin-api-kit.ts';
import { buildTestApp } from './support/app.ts';
import { createTestDatabase } from './support/database.ts';
import {
  claimsOf,
  createAccount,
  redeemCode,
  registerTestClient,
  resumeToCode,
} from './support/oidc-flow.ts';
import { administer, databaseUrlOn, dropDatabase } from './support/postgres-admin.ts';

const run = promisify(execFile);
const OPERATIONS = fileURLToPath(new URL('../../OPERATIONS.md', import.meta.url));

/**
 * The shell block that follows `<!-- recipe: NAME -->` in OPERATIONS.md: the test runs the very
 * commands an operator copies from there.
 */
async function recipe(name: string): Promise<string> {
  const text = await readFile(OPERATIONS, 'utf8');
  const match = new RegExp(`<!-- recipe: ${name} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(text);
  if (!match?.[1]) throw new Error(`OPERATIONS.md has no "${name}" recipe`);
  return match[1];
}

async function runRecipe(name: string, env: Record<string, string>): Promise<void> {
  await run('bash', ['-euo', 'pipefail', '-c', await recipe(name)], {
    env: { PATH: process.env.PATH, ...env },
  });
}

/**
 * OPERATIONS.md's backup and restore of PostgreSQL, tested on a small database (issue 17): a backup
 * of a live service's database, restored into an empty one, serves the same accounts, clients and
 * signing keys. vitest.config.ts includes this file only when DATABASE_URL names a server.
 */
describe('backup and restore of PostgreSQL (OPERATIONS.md)', () => {
  const serverUrl = process.env.DATABASE_URL ?? '';
  const backup = path.join(tmpdir(), `keycard-backup-${randomBytes(4).toString('hex')}.dump`);
  const restoredName = `keycard_restored_${randomBytes(6).toString('hex')}`;
  afterAll(async () => {
    await rm(backup, { force: true });
    await dropDatabase(serverUrl, restoredName);
  });

  it('restores a backup into an empty database, where the account signs in with its password', async () => {
    const original = await createTestDatabase();
    let issuer: string;
    try {
      await registerTestClient(original.database.db);
      await createAccount(original.database.db, 'grace@example.com', 'Backed-Up-Password-7');
      // The service ran on it: its signing keys and cookie secrets are in the database too.
      const app = await buildTestApp(original.database.db);
      issuer = String((await app.inject('/oidc/.well-known/openid-configuration')).json().issuer);
      await app.close();
      await runRecipe('backup', { DATABASE_URL: String(original.databaseUrl), BACKUP: backup });
    } finally {
      await original.dispose();
    }

    await administer(serverUrl, `create database ${restoredName}`);
    const restoredUrl = databaseUrlOn(serverUrl, restoredName);
    await runRecipe('restore', { RESTORE_URL: restoredUrl, BACKUP: backup });

    const restored = await openDatabase({ databaseUrl: restoredUrl });
    try {
      // The restored migration journal is current: starting the service there migrates nothing.
      const applied = async () => {
        const [row] = rowsOf<{ n: number }>(
          await restored.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
        );
        return row?.n ?? 0;
      };
      const before = await applied();
      expect(before).toBeGreaterThan(0);
      await migrateDatabase(restored);
      expect(await applied()).toBe(before);
      const app = await buildTestApp(restored.db);
      try {
        const discovery = (await app.inject('/oidc/.well-known/openid-configuration')).json();
        expect(discovery.issuer).toBe(issuer);

        const { browser, auth, body } = await attemptSignIn(app, 'grace@example.com', 'Backed-Up-Password-7');
        expect(body.isAuthenticated).toBe(true);
        const tokens = await redeemCode(
          app,
          await resumeToCode(browser, body.redirectUrl ?? ''),
          auth.verifier,
        );
        expect(claimsOf(tokens.id_token)).toMatchObject({ email: 'grace@example.com' });
      } finally {
        await app.close();
      }
    } finally {
      await restored.close();
    }
  }, 60_000);
});
