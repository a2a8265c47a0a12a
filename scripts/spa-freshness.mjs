// When web/dist is stale: shared by `npm start` and `npm test`, so both rebuild for the same reasons.
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

/** Why web/dist must be rebuilt, or undefined when it is fresh. */
export function spaStaleReason() {
  const index = at('web/dist/index.html');
  if (!existsSync(index)) return 'web/dist/index.html is missing';
  const builtAt = statSync(index).mtimeMs;
  const changed = SPA_INPUTS.find((input) => newestChange(input) > builtAt);
  return changed ? `${path.relative(root, changed)} changed since the last build` : undefined;
}
