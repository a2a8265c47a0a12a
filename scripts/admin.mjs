// `npm run admin -- <command>`: the admin CLI, run compiled like the service (server/dist/admin/cli.js),
// after building server/dist when it is stale. Build progress goes to stderr, because stdout carries
// the command's answer (scripts parse its `--json` line).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServer } from './build-server.mjs';
import { serverStaleReason } from './spa-freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const reason = serverStaleReason();
if (reason) {
  console.error(`Building the server (${reason}) …`);
  try {
    await buildServer({ onlyIfStale: true });
  } catch (error) {
    console.error(`Building the server failed:\n${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
await import(pathToFileURL(path.join(root, 'server', 'dist', 'admin', 'cli.js')).href);
