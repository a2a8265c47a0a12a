/**
 * The pure half of the open-source notice (SPEC §1 Imprint): which npm packages ship, and under
 * which licence. The Vite glue lives in licenses-plugin.ts.
 */
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** One shipped component, as /licenses.json lists it. */
export interface ComponentLicense {
  readonly name: string;
  readonly version: string;
  readonly license: string;
}

/** The package.json fields this needs; everything else may be anything. */
export interface Manifest {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly license?: unknown;
  readonly licenses?: unknown;
  readonly dependencies?: unknown;
  readonly optionalDependencies?: unknown;
}

const NODE_MODULES = '/node_modules/';

/** Bundler ids may carry a `\0` virtual prefix, a query, Windows separators or a relative start. */
function normalise(id: string): string {
  const withoutQuery = id.replace(/^\0+/, '').split('?')[0] ?? '';
  const slashed = withoutQuery.replaceAll('\\', '/');
  return slashed.startsWith('node_modules/') ? `/${slashed}` : slashed;
}

/**
 * The package a module id belongs to, or undefined when it is not from node_modules. The last
 * node_modules segment wins, so nested copies and pnpm's `.pnpm/x@1/node_modules/x` layout resolve
 * to the package actually used.
 */
export function packageOfModuleId(id: string): { name: string; dir: string } | undefined {
  const clean = normalise(id);
  const at = clean.lastIndexOf(NODE_MODULES);
  if (at < 0) {
    return undefined;
  }
  const [first, second] = clean.slice(at + NODE_MODULES.length).split('/');
  if (!first || first.startsWith('.')) {
    return undefined;
  }
  const name = first.startsWith('@') ? (second ? `${first}/${second}` : undefined) : first;
  return name ? { name, dir: clean.slice(0, at + NODE_MODULES.length) + name } : undefined;
}

/** Just the name; see packageOfModuleId. */
export function packageNameFromModuleId(id: string): string | undefined {
  return packageOfModuleId(id)?.name;
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
}

function licenseName(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') {
    return value.trim();
  }
  if (typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string') {
    return value.type;
  }
  return undefined;
}

/**
 * SPDX `license`, else the legacy `{ type }` object or `licenses` array (several entries meant a
 * choice, hence OR), else 'UNKNOWN' so a missing licence is visible rather than silently dropped.
 */
export function licenseOf(manifest: Manifest): string {
  const license = licenseName(manifest.license);
  if (license) {
    return license;
  }
  const legacy = Array.isArray(manifest.licenses)
    ? manifest.licenses.map(licenseName).filter((name) => name !== undefined)
    : [];
  if (legacy.length > 1) {
    return `(${legacy.join(' OR ')})`;
  }
  return legacy[0] ?? 'UNKNOWN';
}

export function componentOf(manifest: Manifest, fallbackName: string): ComponentLicense {
  return {
    name: typeof manifest.name === 'string' ? manifest.name : fallbackName,
    version: typeof manifest.version === 'string' ? manifest.version : '0.0.0',
    license: licenseOf(manifest),
  };
}

function dependencyNames(manifest: Manifest): { required: string[]; optional: string[] } {
  const keys = (value: unknown): string[] =>
    typeof value === 'object' && value !== null ? Object.keys(value) : [];
  return { required: keys(manifest.dependencies), optional: keys(manifest.optionalDependencies) };
}

/** Node's lookup: `<dir>/node_modules/<name>` in `fromDir` and each ancestor, real path of the first hit. */
export function resolvePackageDir(fromDir: string, name: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    if (path.basename(dir) !== 'node_modules') {
      try {
        return realpathSync(path.join(dir, 'node_modules', name));
      } catch {
        // not here; try the parent
      }
    }
    if (path.dirname(dir) === dir) {
      return undefined;
    }
  }
}

export interface Closure {
  readonly components: ComponentLicense[];
  /** Required dependencies that are not installed (optional ones may legitimately be absent). */
  readonly missing: string[];
}

/**
 * The production dependency closure of the package in `rootDir`: `dependencies` and installed
 * `optionalDependencies`, walked recursively. Packages for which `isOwn` holds (the workspace's
 * own) are walked through but not listed: their dependencies ship, they are not third-party.
 */
export function productionClosure(rootDir: string, isOwn: (name: string) => boolean): Closure {
  const components: ComponentLicense[] = [];
  const missing: string[] = [];
  const visited = new Set<string>();
  const walk = (fromDir: string, manifest: Manifest): void => {
    const { required, optional } = dependencyNames(manifest);
    for (const name of [...required, ...optional]) {
      const dir = resolvePackageDir(fromDir, name);
      if (!dir) {
        if (required.includes(name)) {
          missing.push(`${name} (needed by ${typeof manifest.name === 'string' ? manifest.name : fromDir})`);
        }
        continue;
      }
      if (visited.has(dir)) {
        continue;
      }
      visited.add(dir);
      const dependency = readManifest(dir);
      if (!isOwn(name)) {
        components.push(componentOf(dependency, name));
      }
      walk(dir, dependency);
    }
  };
  walk(rootDir, readManifest(rootDir));
  return { components, missing };
}

/** Deduplicated by name@version and sorted by name, then version, independent of locale. */
export function sortedUnique(components: Iterable<ComponentLicense>): ComponentLicense[] {
  const byKey = new Map<string, ComponentLicense>();
  for (const component of components) {
    byKey.set(`${component.name}@${component.version}`, component);
  }
  const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...byKey.values()].sort((a, b) => compare(a.name, b.name) || compare(a.version, b.version));
}
