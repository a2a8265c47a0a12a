import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md: queries live in `store/` and in each domain's `*-repository.ts`. The dependency
 * check (`server-queries-in-repositories` in .dependency-cruiser.cjs) refuses an import of the query
 * builder anywhere else; a query needs no import when it goes through the database handle's own
 * `execute` or `query` with a plain string, so this test looks for those calls in the source.
 */
const SOURCE = fileURLToPath(new URL('..', import.meta.url));
const RAW_QUERY = /\.(execute|query)\s*\(/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

function mayQuery(file: string): boolean {
  const relative = path.relative(SOURCE, file).split(path.sep).join('/');
  return relative.startsWith('store/') || /^[^/]+\/[^/]+-repository\.ts$/.test(relative);
}

describe('queries only in the store and the repository modules', () => {
  it('no other source file runs a raw query through the database handle', () => {
    const offenders = sourceFiles(SOURCE)
      .filter((file) => !mayQuery(file))
      .filter((file) => RAW_QUERY.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(SOURCE, file));
    expect(offenders).toEqual([]);
  });

  it('each domain folder has at most one repository module', () => {
    const repositories = sourceFiles(SOURCE)
      .map((file) => path.relative(SOURCE, file).split(path.sep).join('/'))
      .filter((relative) => /^[^/]+\/[^/]+-repository\.ts$/.test(relative));
    const folders = repositories.map((relative) => relative.split('/')[0]);
    expect(repositories.length).toBeGreaterThan(0);
    expect(folders.filter((folder, index) => folders.indexOf(folder) !== index)).toEqual([]);
  });

  it('recognises a raw query where it is not allowed, and allows it in a repository', () => {
    expect(RAW_QUERY.test("await db.execute('select 1')")).toBe(true);
    expect(RAW_QUERY.test('await client.query (`select 1`)')).toBe(true);
    expect(mayQuery(path.join(SOURCE, 'accounts', 'login.ts'))).toBe(false);
    expect(mayQuery(path.join(SOURCE, 'accounts', 'account-repository.ts'))).toBe(true);
    expect(mayQuery(path.join(SOURCE, 'store', 'migrate.ts'))).toBe(true);
  });
});
