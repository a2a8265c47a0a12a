// When web/dist or server/dist is stale: shared by `npm start`, `npm run admin` and `npm test`, so they
// rebuild for the same reasons.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (relative) => path.join(root, relative);

/** Everything the SPA build reads; a change to any of them makes web/dist stale. */
const SPA_INPUTS = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/scripts',
  'web/build',
  'web/package.json',
  'contract/src',
].map(at);
/** Everything the server build reads (scripts/build-server.mjs); a change to any makes server/dist stale. */
const SERVER_INPUTS = [
  'server/src',
  'server/tsconfig.build.json',
  'contract/src',
  'contract/package.json',
  'contract/tsconfig.build.json',
  'tsconfig.base.json',
  'scripts/build-server.mjs',
].map(at);
/** Written by the build itself (background images, licence list), so never a reason to rebuild. */
const BUILD_OUTPUTS = ['web/public/images/background', 'web/src/generated'].map(at);
const IGNORED = /(^|[\\/])(node_modules|\.[^\\/]+)$|\.test\.[cm]?[jt]sx?$/;

/** Newest modification time (ms) under `file`, 0 when it does not exist. */
function newestChange(file) {
  if (BUILD_OUTPUTS.includes(file) || IGNORED.test(file) || !existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(file).reduce((newest, name) => Math.max(newest, newestChange(path.join(file, name))), 0);
}

/** Why the build marked by `marker` must be redone, or undefined when no input changed since. */
function staleReason(marker, inputs) {
  if (!existsSync(marker)) return `${path.relative(root, marker)} is missing`;
  const builtAt = statSync(marker).mtimeMs;
  const changed = inputs.find((input) => newestChange(input) > builtAt);
  return changed ? `${path.relative(root, changed)} changed since the last build` : undefined;
}

/** Why web/dist must be rebuilt, or undefined when it is fresh. */
export function spaStaleReason() {
  return staleReason(at('web/dist/index.html'), SPA_INPUTS);
}

/** Why server/dist must be rebuilt, or undefined when it is fresh. */
export function serverStaleReason() {
  return staleReason(at('server/dist/build.json'), SERVER_INPUTS);
}
