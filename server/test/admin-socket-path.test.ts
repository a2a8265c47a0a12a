import { writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAdminSocket } from '../src/admin/admin-socket.ts';
import { executeAdminRequest } from '../src/admin/execute-request.ts';
import { adminSocketPath } from '../src/admin/socket-protocol.ts';
import { LOCK_FILE_NAME } from '../src/lock-file.ts';
import { provisioningMailing } from '../src/provisioning/provisioning-mailing.ts';
import { runAdmin } from './admin-harness.ts';
import { testConfig } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';

const testDb = useTestDatabase();

describe('a DATA_DIR too deep for a Unix socket’s path', () => {
  it('still has its admin socket, which the CLI reaches by the path from the working directory', async () => {
    // Under the working directory, its socket 100 bytes from it: more than 103 as an absolute path.
    const name = `deep-${process.pid}-`;
    const pad = 100 - '.tmp/'.length - name.length - '/admin.sock'.length;
    const dataDir = path.join(process.cwd(), '.tmp', `${name}${'d'.repeat(pad)}`);
    expect(Buffer.byteLength(path.join(dataDir, 'admin.sock'))).toBeGreaterThan(103);
    await mkdir(dataDir, { recursive: true });
    try {
      // DATA_DIR held by a live process that is not this one, as a running service holds it.
      writeFileSync(path.join(dataDir, LOCK_FILE_NAME), `${process.ppid}\n`);
      const mailing = provisioningMailing(testConfig());
      const socket = await startAdminSocket({ dataDir, db: testDb().db, mailing });
      try {
        expect(socket.path).toBe(adminSocketPath(dataDir));
        expect(path.isAbsolute(socket.path)).toBe(false);
        const run = await runAdmin(['mail:failed', '--json'], {
          env: { DATA_DIR: dataDir },
          execute: (config, request) => executeAdminRequest(config, request, { waitMs: 400, pollMs: 50 }),
        });
        expect(run.code).toBe(0);
        expect(run.json()).toMatchObject({ ok: true, via: 'service' });
      } finally {
        await socket.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
