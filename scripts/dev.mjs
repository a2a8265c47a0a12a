// `npm run dev`: the service (restarted on server changes) and Vite's dev server with hot reload,
// which proxies /api, /oidc, /demo and /dev to the service (web/vite.config.ts). Ctrl-C stops both;
// when either stops, the other is stopped too.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) =>
  path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

const port = process.env.PORT ?? '3000';
const vitePort = '5173';
// The browser talks to Vite, so links in mail, the OIDC issuer and redirects must use Vite's origin.
const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${vitePort}`;

// Each child gets its own process group and exactly one signal from here: `tsx watch` kills its
// service with SIGKILL on a second signal, which would leave PGlite unflushed and the lock behind —
// and a terminal's Ctrl-C (plus npm's forwarding) would otherwise deliver two. Without a terminal on
// stdin neither child tries to read keys from a terminal it no longer owns.
const options = { stdio: ['ignore', 'inherit', 'inherit'], detached: true };
const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'server/src/main.ts'], {
    ...options,
    cwd: root,
    env: { ...process.env, PORT: port, PUBLIC_URL: publicUrl },
  }),
  spawn(bin('vite'), ['--port', vitePort, '--strictPort'], {
    ...options,
    cwd: path.join(root, 'web'),
    env: { ...process.env, KEYCARD_PORT: port },
  }),
];

const running = (child) => child.exitCode === null && child.signalCode === null;
let stopping = false;
let exitCode;

function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (running(child)) child.kill(signal);
}

for (const child of children) {
  child.on('exit', (code) => {
    exitCode ??= code ?? 0;
    stopAll('SIGTERM');
    if (!children.some(running)) process.exit(exitCode);
  });
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => stopAll(signal));
}
// Should this script die some other way, its detached children must not outlive it.
process.on('exit', () => {
  for (const child of children) if (running(child)) child.kill('SIGTERM');
});
console.log(`Keycard dev: open ${publicUrl}/ (Vite with hot reload; the service listens on port ${port})`);
