// @vitest-environment node
// Reads and writes real fixture trees on disk; nothing of jsdom is needed.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { licensesPlugin } from './licenses-plugin.ts';
import {
  type ComponentLicense,
  licenseOf,
  packageNameFromModuleId,
  productionClosure,
  sortedUnique,
} from './package-licenses.ts';

describe('packageNameFromModuleId', () => {
  it.each([
    ['/repo/node_modules/react/index.js', 'react'],
    ['/repo/node_modules/react-dom/cjs/react-dom-client.production.js', 'react-dom'],
    ['/repo/node_modules/@scope/pkg/dist/index.js', '@scope/pkg'],
    ['/repo/node_modules/a/node_modules/b/lib/b.js', 'b'],
    ['/repo/node_modules/a/node_modules/@scope/c/c.js', '@scope/c'],
    ['/repo/node_modules/.pnpm/react@19.2.0/node_modules/react/index.js', 'react'],
    ['\0/repo/node_modules/cookie/index.js?commonjs-proxy', 'cookie'],
    ['C:\\repo\\node_modules\\@scope\\win\\index.js', '@scope/win'],
    ['node_modules/relative/file.woff2', 'relative'],
  ])('%s belongs to %s', (id, name) => {
    expect(packageNameFromModuleId(id)).toBe(name);
  });

  it.each([
    '/repo/web/src/main.tsx',
    '/repo/contract/src/index.ts',
    '\0vite/preload-helper.js',
    '/repo/node_modules/.vite/deps/react.js',
    '/repo/node_modules/@scope',
  ])('%s is not from a package', (id) => {
    expect(packageNameFromModuleId(id)).toBeUndefined();
  });
});

describe('licenseOf', () => {
  it('prefers the SPDX license field', () => {
    expect(licenseOf({ license: 'MIT', licenses: [{ type: 'GPL-2.0' }] })).toBe('MIT');
  });

  it('reads the legacy object and array forms, several entries being a choice', () => {
    expect(licenseOf({ license: { type: 'ISC' } })).toBe('ISC');
    expect(licenseOf({ licenses: [{ type: 'MIT' }] })).toBe('MIT');
    expect(licenseOf({ licenses: [{ type: 'MIT' }, { type: 'Apache-2.0' }] })).toBe('(MIT OR Apache-2.0)');
  });

  it('says UNKNOWN rather than dropping a package without a licence', () => {
    expect(licenseOf({})).toBe('UNKNOWN');
    expect(licenseOf({ license: '  ' })).toBe('UNKNOWN');
  });
});

describe('sortedUnique', () => {
  it('keeps one entry per name@version, sorted by name then version', () => {
    const entry = (name: string, version: string): ComponentLicense => ({ name, version, license: 'MIT' });
    expect(
      sortedUnique([entry('b', '1.0.0'), entry('a', '2.0.0'), entry('b', '1.0.0'), entry('a', '1.0.0')]),
    ).toEqual([entry('a', '1.0.0'), entry('a', '2.0.0'), entry('b', '1.0.0')]);
  });
});

/** A small install: server → (fastify → ms, optional-native), @keycard/contract (workspace) → zod. */
function writeFixture(root: string): void {
  const write = (dir: string, manifest: object): void => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
  };
  const modules = path.join(root, 'node_modules');
  write(path.join(root, 'server'), {
    name: '@keycard/server',
    dependencies: { fastify: '^5', '@keycard/contract': '*' },
    devDependencies: { vitest: '^4' },
  });
  write(path.join(root, 'contract'), { name: '@keycard/contract', dependencies: { zod: '^4' } });
  mkdirSync(path.join(modules, '@keycard'), { recursive: true });
  symlinkSync(path.join(root, 'contract'), path.join(modules, '@keycard', 'contract'), 'dir');
  write(path.join(modules, 'fastify'), {
    name: 'fastify',
    version: '5.1.0',
    license: 'MIT',
    dependencies: { ms: '^2', '@scope/util': '^1' },
    optionalDependencies: { 'native-linux': '^1', 'native-darwin': '^1' },
  });
  // fastify needs ms 2 while the hoisted copy is 3: npm nests the right one under fastify.
  write(path.join(modules, 'fastify', 'node_modules', 'ms'), {
    name: 'ms',
    version: '2.1.3',
    license: 'MIT',
  });
  write(path.join(modules, 'ms'), { name: 'ms', version: '3.0.0', license: 'MIT' });
  write(path.join(modules, '@scope', 'util'), {
    name: '@scope/util',
    version: '1.0.0',
    licenses: [{ type: 'BSD-3-Clause' }],
    dependencies: { fastify: '^5' },
  });
  write(path.join(modules, 'native-linux'), { name: 'native-linux', version: '1.0.0' });
  write(path.join(modules, 'zod'), { name: 'zod', version: '4.1.0', license: 'MIT' });
  write(path.join(modules, 'vitest'), { name: 'vitest', version: '4.0.0', license: 'MIT' });
}

describe('productionClosure', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'keycard-licenses-'));
    writeFixture(root);
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('walks dependencies recursively, through workspaces, resolving nested copies first', () => {
    const { components, missing } = productionClosure(path.join(root, 'server'), (name) =>
      name.startsWith('@keycard/'),
    );
    expect(sortedUnique(components)).toEqual([
      { name: '@scope/util', version: '1.0.0', license: 'BSD-3-Clause' },
      { name: 'fastify', version: '5.1.0', license: 'MIT' },
      { name: 'ms', version: '2.1.3', license: 'MIT' },
      { name: 'native-linux', version: '1.0.0', license: 'UNKNOWN' },
      { name: 'zod', version: '4.1.0', license: 'MIT' },
    ]);
    expect(missing).toEqual([]);
  });

  it('reports a required dependency that is not installed, but not an absent optional one', () => {
    writeFileSync(
      path.join(root, 'node_modules', 'zod', 'package.json'),
      JSON.stringify({ name: 'zod', version: '4.1.0', dependencies: { gone: '^1' } }),
    );
    expect(productionClosure(path.join(root, 'server'), () => false).missing).toEqual([
      'gone (needed by zod)',
    ]);
  });

  it('emits licenses.json from the bundle and the server closure', () => {
    const plugin = licensesPlugin({ serverDir: path.join(root, 'server') });
    const emitted: Array<{ fileName?: string; source?: unknown }> = [];
    const context = {
      emitFile: (file: { fileName?: string; source?: unknown }) => {
        emitted.push(file);
        return 'ref';
      },
      warn: (message: unknown) => {
        throw new Error(`unexpected warning ${String(message)}`);
      },
    };
    const modules = path.join(root, 'node_modules');
    const bundle = {
      'index.js': {
        type: 'chunk',
        modules: {
          [path.join(modules, 'vitest', 'index.js')]: { renderedLength: 120 },
          [path.join(modules, 'ms', 'index.js')]: { renderedLength: 0 },
          [path.join(root, 'web', 'src', 'main.tsx')]: { renderedLength: 300 },
        },
      },
    };
    const hook = plugin.generateBundle;
    const handler = typeof hook === 'function' ? hook : hook?.handler;
    // The hook only reads `modules`; the test bundle is the minimal shape it needs.
    Reflect.apply(handler as (...args: unknown[]) => void, context, [{}, bundle, false]);
    expect(emitted).toHaveLength(1);
    expect(emitted[0]?.fileName).toBe('licenses.json');
    const names = (JSON.parse(String(emitted[0]?.source)) as ComponentLicense[]).map(
      (entry) => `${entry.name}@${entry.version}`,
    );
    // vitest stands in for a bundled package; ms 3 was tree-shaken away, ms 2 ships with the server.
    expect(names).toEqual([
      '@scope/util@1.0.0',
      'fastify@5.1.0',
      'ms@2.1.3',
      'native-linux@1.0.0',
      'vitest@4.0.0',
      'zod@4.1.0',
    ]);
  });
});
