import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The operating system refuses a chmod of a directory another user owns (EPERM); as root, which may
// change any mode, only a stand-in for chmod can show what the service then says.
vi.mock('node:fs/promises', async (actual) => ({
  ...(await actual<typeof import('node:fs/promises')>()),
  chmod: vi.fn(async () => {
    throw Object.assign(new Error('EPERM: operation not permitted, chmod'), { code: 'EPERM' });
  }),
}));

const { openDatabase, pgliteDirectory } = await import('./open-database.ts');

let dataDir = '';
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('an embedded database directory of another user', () => {
  it('stops the start naming the directory and what to do, rather than leave it open to all', async () => {
    const actual = await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises');
    dataDir = await actual.mkdtemp(path.join(tmpdir(), 'keycard-owner-'));
    const directory = pgliteDirectory(dataDir);
    await expect(openDatabase({ pgliteDir: directory })).rejects.toThrow(
      `The embedded database's directory ${directory} belongs to another user`,
    );
    await expect(openDatabase({ pgliteDir: directory })).rejects.toThrow(/chown -R/);
  });
});
