// `npm run db:generate -w server`: runs drizzle-kit so that it finds drizzle-orm. npm installs
// drizzle-orm under server/node_modules (not hoisted) while drizzle-kit sits at the root, and
// drizzle-kit loads drizzle-orm from its own location; both its require() calls (NODE_PATH) and its
// import() calls (resolve hook) are pointed at the server workspace.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const kitBin = path.join(path.dirname(createRequire(import.meta.url).resolve('drizzle-kit')), 'bin.cjs');
const hook = new URL('./resolve-from-server.mjs', import.meta.url).href;

const child = spawn(process.execPath, ['--import', hook, kitBin, ...process.argv.slice(2)], {
  cwd: serverDir,
  stdio: 'inherit',
  env: { ...process.env, NODE_PATH: path.join(serverDir, 'node_modules') },
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
