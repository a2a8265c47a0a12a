// `npm start`: builds the SPA when it is missing or older than its sources, then runs the service,
// which applies migrations and serves SPA + API (DESIGN §5). Signals and the exit code pass through.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { constants } from 'node:os';
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

function spaIsStale() {
  const index = at('web/dist/index.html');
  if (!existsSync(index)) return 'web/dist/index.html is missing';
  const builtAt = statSync(index).mtimeMs;
  const changed = SPA_INPUTS.find((input) => newestChange(input) > builtAt);
  return changed ? `${path.relative(root, changed)} changed since the last build` : undefined;
}

function buildSpa(reason) {
  console.log(`Building the SPA (${reason}) …`);
  // Under `npm start`, npm_execpath is the running npm's CLI; otherwise npm is looked up on PATH.
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli?.endsWith('.js')
    ? [process.execPath, [npmCli, 'run', 'build', '-w', 'web']]
    : [process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '-w', 'web']];
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('The SPA build failed (see above); the service was not started.');
    process.exit(result.status ?? 1);
  }
}

const reason = spaIsStale();
if (reason) buildSpa(reason);

const tsx = at(`node_modules/.bin/${process.platform === 'win32' ? 'tsx.cmd' : 'tsx'}`);
const service = spawn(tsx, ['server/src/main.ts'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => service.kill(signal));
}
service.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
});
