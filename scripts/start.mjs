// `npm start`: builds whatever is stale (the SPA into web/dist, the server into server/dist), saying
// what and why, then runs the compiled service in this same process with plain node: it applies the
// migrations and serves SPA + API (DESIGN §5). The service owns SIGINT/SIGTERM from then on and exits
// 0 once it has shut down; a signal during a build stops the build and exits 0 as well.
import { spawn } from 'node:child_process';
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serverStaleReason, spaStaleReason } from './spa-freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SIGNALS = ['SIGINT', 'SIGTERM'];

/** `npm run build -w web`; under `npm start`, npm_execpath is the running npm's CLI. */
function npmBuildWeb() {
  const npmCli = process.env.npm_execpath;
  return npmCli?.endsWith('.js')
    ? [process.execPath, [npmCli, 'run', 'build', '-w', 'web']]
    : [process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '-w', 'web']];
}

const BUILDS = [
  { name: 'the SPA', staleReason: spaStaleReason, command: npmBuildWeb },
  {
    name: 'the server',
    staleReason: serverStaleReason,
    command: () => [process.execPath, [path.join(root, 'scripts', 'build-server.mjs'), '--if-stale']],
  },
];

let build;
let stopSignal;

/**
 * A build runs in a process group of its own (npm, its shell, Vite, tsx …), so a signal stops all of
 * it: otherwise a SIGTERM sent to this process alone would leave the build running without a parent.
 */
function onSignalWhileBuilding(signal) {
  stopSignal ??= signal;
  if (build?.pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? build.pid : -build.pid, signal);
  } catch {
    // The build has just finished.
  }
}

function run([command, args]) {
  return new Promise((resolve) => {
    build = spawn(command, args, {
      cwd: root,
      stdio: 'inherit',
      detached: process.platform !== 'win32',
      shell: process.platform === 'win32',
    });
    build.on('error', (error) => {
      console.error(`Could not run ${command}: ${error.message}`);
      resolve(1);
    });
    build.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  }).finally(() => {
    build = undefined;
  });
}

for (const signal of SIGNALS) process.on(signal, onSignalWhileBuilding);

for (const { name, staleReason, command } of BUILDS) {
  const reason = staleReason();
  if (!reason || stopSignal) continue;
  console.log(`Building ${name} (${reason}) …`);
  const started = performance.now();
  const status = await run(command());
  if (stopSignal) break;
  if (status !== 0) {
    console.error(`Building ${name} failed (see above); the service was not started.`);
    process.exit(status);
  }
  console.log(`Built ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}
if (stopSignal) {
  console.log(`Stopped by ${stopSignal} before the service started.`);
  process.exit(0);
}

// V8's compiled code for the service and its packages is kept on disk, which saves a warm start
// about 0.1 s of CPU (BENCHMARKS.md); a failure to set up the cache only costs that.
module.enableCompileCache?.();

// A signal that arrives while the service's modules load is held until its own handlers exist
// (main.ts installs them before anything else), then delivered again.
for (const signal of SIGNALS) process.off(signal, onSignalWhileBuilding);
const held = [];
const hold = (signal) => held.push(signal);
for (const signal of SIGNALS) process.on(signal, hold);
console.log('Starting Keycard: pending migrations are applied, then it serves …');
await import(pathToFileURL(path.join(root, 'server', 'dist', 'main.js')).href);
for (const signal of SIGNALS) process.off(signal, hold);
if (held[0]) process.kill(process.pid, held[0]);
