import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findAccountByEmail } from '../src/accounts/account-repository.ts';
import { verifyPassword } from '../src/accounts/password-hash.ts';
import { startAdminSocket } from '../src/admin/admin-socket.ts';
import { LOCK_FILE_NAME } from '../src/lock-file.ts';
import { provisioningMailing } from '../src/provisioning/provisioning-mailing.ts';
import { openDatabase, pgliteDirectory } from '../src/store/open-database.ts';
import { testConfig } from './support/app.ts';
import { appears } from './support/appears.ts';
import { openMigratedPglite } from './support/database.ts';
import { buildServerIfStale } from './support/service-process.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PASSWORD = 'Correct-Horse-42';

beforeAll(buildServerIfStale);

/** `npm run admin -- …` as a real process (the compiled CLI, as npm runs it), with `stdin` piped in. */
function admin(args: string[], dataDir: string, stdin = '') {
  const { DATABASE_URL: _inherited, ...env } = process.env;
  const child = spawn(process.execPath, ['server/dist/admin/cli.js', ...args], {
    cwd: REPO_ROOT,
    env: { ...env, DATA_DIR: dataDir },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'keycard-admin-proc-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('npm run admin as a separate process', () => {
  it('reaches the process holding DATA_DIR through its admin socket, password piped on stdin', async () => {
    const database = await openMigratedPglite();
    // This test process plays the running service: it holds the lock and serves the socket.
    writeFileSync(path.join(dataDir, LOCK_FILE_NAME), `${process.pid}\n`);
    const socket = await startAdminSocket({
      dataDir,
      db: database.db,
      mailing: provisioningMailing(testConfig()),
    });
    try {
      const run = await admin(
        ['user:add', '--email', 'proc@example.com', '--name', 'Pro Cess', '--password-stdin', '--json'],
        dataDir,
        `${PASSWORD}\n`,
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        ok: true,
        via: 'service',
        result: { hasPassword: true },
      });
      const account = await findAccountByEmail(database.db, 'proc@example.com');
      expect(await verifyPassword(account?.passwordHash ?? null, PASSWORD)).toBe(true);
    } finally {
      await socket.close();
      await database.close();
    }
  }, 60_000);

  it('makes a second admin command wait for the first one on the same DATA_DIR, never sharing PGlite', async () => {
    const locked = appears(dataDir, LOCK_FILE_NAME, 30_000);
    const first = admin(['user:add', '--email', 'one@example.com', '--name', 'One'], dataDir);
    await locked;
    const second = await admin(['user:add', '--email', 'two@example.com', '--name', 'Two'], dataDir);
    expect((await first).code).toBe(0);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/^admin: waiting for the data directory \(held by process \d+\)…\n$/);
    // Had both opened PGlite at once, one of the rows would be lost.
    const database = await openDatabase({ pgliteDir: pgliteDirectory(dataDir) });
    try {
      expect(await findAccountByEmail(database.db, 'one@example.com')).not.toBeNull();
      expect(await findAccountByEmail(database.db, 'two@example.com')).not.toBeNull();
    } finally {
      await database.close();
    }
  }, 90_000);
});
