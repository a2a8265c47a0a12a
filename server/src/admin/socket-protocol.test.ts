import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminSocketPath } from './socket-protocol.ts';

/** A DATA_DIR under `cwd` whose admin socket's absolute path is `bytes` long. */
function dataDirWithSocketOf(cwd: string, bytes: number): string {
  const fixed = `${cwd}/`.length + '/admin.sock'.length;
  return path.join(cwd, 'd'.repeat(bytes - fixed));
}

describe('the admin socket’s path (DESIGN §5)', () => {
  const cwd = '/srv/keycard';

  it('is the absolute path up to 103 bytes, and from 104 the path from the working directory', () => {
    const fits = dataDirWithSocketOf(cwd, 103);
    expect(adminSocketPath(fits, cwd)).toBe(`${fits}/admin.sock`);
    expect(Buffer.byteLength(adminSocketPath(fits, cwd))).toBe(103);
    const deep = dataDirWithSocketOf(cwd, 104);
    const relative = adminSocketPath(deep, cwd);
    expect(relative).toBe(`${path.basename(deep)}/admin.sock`);
    expect(path.resolve(cwd, relative)).toBe(`${deep}/admin.sock`);
  });

  it('resolves a relative DATA_DIR against the working directory', () => {
    expect(adminSocketPath('data', cwd)).toBe('/srv/keycard/data/admin.sock');
  });

  it('counts bytes, not characters', () => {
    // Forty characters of two bytes each: the absolute path has 64 characters but 104 bytes.
    const deep = path.join(cwd, 'ä'.repeat(40));
    expect(Buffer.byteLength(`${deep}/admin.sock`)).toBeGreaterThan(103);
    expect(adminSocketPath(deep, cwd)).toBe(`${'ä'.repeat(40)}/admin.sock`);
  });

  it('refuses, naming DATA_DIR, one too deep from the working directory as well', () => {
    const elsewhere = path.join('/var/lib', 'k'.repeat(100));
    expect(() => adminSocketPath(elsewhere, cwd)).toThrow(
      `DATA_DIR ${elsewhere} is too deep for its admin socket`,
    );
  });
});
