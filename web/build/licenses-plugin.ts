/**
 * Emits /licenses.json for the imprint's open-source notice (SPEC §1, issue 2): every npm package
 * whose code is in the SPA bundle, plus the production dependency closure of the identity service,
 * which ships alongside it.
 */
import path from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import {
  type ComponentLicense,
  componentOf,
  packageOfModuleId,
  productionClosure,
  readManifest,
  sortedUnique,
} from './package-licenses.ts';

export interface LicensesPluginOptions {
  /** The service whose production dependencies ship too; default: `../server` from the Vite root. */
  readonly serverDir?: string;
}

const FILE_NAME = 'licenses.json';

/** Keycard's own workspaces are not third-party components. */
const isOwn = (name: string): boolean => name.startsWith('@keycard/');

/** Stylesheets keep no JS after bundling, so a CSS module from a package counts by being included. */
const STYLESHEET = /\.(css|scss|sass|less|styl)(\?|$)/;

/** Structural view of the output bundle: only what this plugin reads. */
interface BundleEntry {
  readonly type: 'chunk' | 'asset';
  readonly modules?: Readonly<Record<string, { readonly renderedLength: number }>>;
  readonly originalFileNames?: readonly string[];
}

/** Module ids and asset sources in the bundle that left something in the output. */
function shippedIds(bundle: Readonly<Record<string, BundleEntry>>): string[] {
  const ids: string[] = [];
  for (const entry of Object.values(bundle)) {
    for (const [id, info] of Object.entries(entry.modules ?? {})) {
      if (info.renderedLength > 0 || STYLESHEET.test(id)) {
        ids.push(id);
      }
    }
    ids.push(...(entry.originalFileNames ?? []));
  }
  return ids;
}

function bundledComponents(ids: Iterable<string>): ComponentLicense[] {
  const dirs = new Map<string, string>();
  for (const id of ids) {
    const found = packageOfModuleId(id);
    if (found && !isOwn(found.name)) {
      dirs.set(found.dir, found.name);
    }
  }
  return [...dirs].map(([dir, name]) => componentOf(readManifest(dir), name));
}

export function licensesPlugin(options: LicensesPluginOptions = {}): Plugin {
  let serverDir = options.serverDir ?? '';
  const serverComponents = (warn: (message: string) => void): ComponentLicense[] => {
    const { components, missing } = productionClosure(serverDir, isOwn);
    for (const dependency of missing) {
      warn(`licenses: ${dependency} is not installed; it is missing from ${FILE_NAME}`);
    }
    return components;
  };
  return {
    name: 'keycard-licenses',
    configResolved(config: ResolvedConfig) {
      serverDir ||= path.resolve(config.root, '..', 'server');
    },
    configureServer(server) {
      // No bundle exists in development; the web workspace's own closure stands in for it so the
      // imprint still has a list to show.
      const webDir = server.config.root;
      server.middlewares.use(`/${FILE_NAME}`, (_request, response) => {
        const warn = (message: string): void => server.config.logger.warn(message);
        const components = [...productionClosure(webDir, isOwn).components, ...serverComponents(warn)];
        response.setHeader('Content-Type', 'application/json');
        response.end(JSON.stringify(sortedUnique(components)));
      });
    },
    generateBundle(_outputOptions, bundle) {
      const warn = (message: string): void => this.warn(message);
      const components = [...bundledComponents(shippedIds(bundle)), ...serverComponents(warn)];
      this.emitFile({
        type: 'asset',
        fileName: FILE_NAME,
        source: `${JSON.stringify(sortedUnique(components), null, 2)}\n`,
      });
    },
  };
}
