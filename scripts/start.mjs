// `npm start`: builds the SPA when it is missing or older than its sources, then runs the service,
// which applies migrations and serves SPA + API (DESIGN §5). Signals and the exit code pass through.
import { spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { spaStaleReason } from './spa-freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

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

const reason = spaStaleReason();
if (reason) buildSpa(reason);

// tsx as a loader inside the service's own process, not its CLI: the CLI relays a signal and, when the
// service's answer takes over 30 ms (a busy start-up), kills it with SIGKILL instead of letting it
// shut down cleanly and release the DATA_DIR lock.
const service = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => service.kill(signal));
}
service.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
});
