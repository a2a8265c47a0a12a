import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEmbeddedDatabase } from './support/service-process.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

describe('npm run admin runs the compiled CLI', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'keycard-admin-compiled-'));
    await seedEmbeddedDatabase(dataDir);
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('answers a command on its own embedded database with no TypeScript loaded', async () => {
    const { DATABASE_URL: _inherited, ...env } = process.env;
    // Type stripping off and no loader: a TypeScript module anywhere would fail to load.
    const { stdout } = await run('npm', ['run', '--silent', 'admin', '--', 'mail:failed', '--json'], {
      cwd: REPO_ROOT,
      env: { ...env, DATA_DIR: dataDir, NODE_OPTIONS: '--no-experimental-strip-types' },
    });
    // stdout is the answer alone: a build of server/dist, when one was due, reports on stderr.
    expect(JSON.parse(stdout)).toEqual({
      ok: true,
      command: 'mail:failed',
      via: 'database',
      result: { retried: false, messages: [] },
    });
  }, 120_000);
});
